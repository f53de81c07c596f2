package e2e

import (
	"slices"
	"testing"
)

// e3Annotation reads one annotation of org/doc by id (nil when absent).
func (s *stack) e3Annotation(c creds, org, doc, id string) map[string]any {
	s.t.Helper()
	r := s.okAs(c, "/v2/commentannotations/get", map[string]any{"organizationId": org, "documentId": doc, "annotationIds": []string{id}})
	arr, _ := r.Data().([]any)
	if len(arr) != 1 {
		s.t.Fatalf("get annotation %s: %s", id, r.Raw)
	}
	a, _ := arr[0].(map[string]any)
	return a
}

// e3DocumentAnnotations lists the sorted annotation ids of org/doc.
func (s *stack) e3DocumentAnnotations(c creds, org, doc string) []string {
	s.t.Helper()
	got := e3AnnotationIDs(s.t, s.okAs(c, "/v2/commentannotations/get", map[string]any{"organizationId": org, "documentId": doc}))
	slices.Sort(got)
	return got
}

// e3CommentTexts lists "<commentId>:<text>" of the annotation's comments.
func e3CommentTexts(a map[string]any) []string {
	var out []string
	list, _ := a["comments"].([]any)
	for _, c := range list {
		m, _ := c.(map[string]any)
		out = append(out, e3JSON(m["commentId"])+":"+e3JSON(m["commentText"]))
	}
	return out
}

func TestCommentAnnotationsThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org, doc = "acme", "d1"
	in := func(extra map[string]any) map[string]any {
		b := map[string]any{"organizationId": org, "documentId": doc}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	var generated string

	t.Run("add", func(t *testing.T) {
		r := s.e3AddAnnotations(s.ws, org, doc, e3AnnotationIn("ann1", "loc-1", "ann", "first", "second"),
			e3AnnotationIn("ann2", "loc-2", "bob", "bob's"), e3AnnotationIn("", "", "carol", "no id"))
		if len(r.DataMap()) != 3 {
			t.Fatalf("add result %s", r.Raw)
		}
		if it := item(t, r, "ann1"); it["annotationId"] != "ann1" || e3JSON(it["commentIds"]) != "[1,2]" {
			t.Fatalf("item ann1 %v", it)
		}
		for key, v := range r.DataMap() {
			if it := v.(map[string]any); key != "ann1" && key != "ann2" {
				generated, _ = it["annotationId"].(string)
			}
		}
		if generated == "" || generated == "ann1" || generated == "ann2" {
			t.Fatalf("no generated annotation id in %s", r.Raw)
		}

		r = s.ok("/v2/commentannotations/add", in(map[string]any{"commentAnnotations": []any{
			e3AnnotationIn("ann1", "", "mallory", "duplicate"), e3AnnotationIn("ann3", "", "ann", "third")}}))
		expectItems(t, r, map[string]bool{"ann1": false, "ann3": true})
		if got := e3CommentTexts(s.e3Annotation(s.ws, org, doc, "ann1")); !slices.Equal(got, []string{`1:"first"`, `2:"second"`}) {
			t.Fatalf("the duplicate add changed ann1: %v", got)
		}

		noFrom := e3AnnotationIn("bad", "", "ann", "x")
		noFrom["commentData"].([]any)[0].(map[string]any)["from"] = nil
		for name, body := range map[string]map[string]any{
			"without commentData":   in(map[string]any{"commentAnnotations": []any{map[string]any{"annotationId": "bad"}}}),
			"comment without from":  in(map[string]any{"commentAnnotations": []any{noFrom}}),
			"annotationId with ':'": in(map[string]any{"commentAnnotations": []any{e3AnnotationIn("a:b", "", "ann", "x")}}),
			"without documentId":    {"organizationId": org, "commentAnnotations": []any{e3AnnotationIn("bad", "", "ann", "x")}},
			"no annotations":        in(map[string]any{"commentAnnotations": []any{}}),
		} {
			if r := s.call("/v2/commentannotations/add", body); r.Status() != "INVALID_ARGUMENT" || r.Code != 400 {
				t.Errorf("%s: got %d %s", name, r.Code, r.Raw)
			}
		}
		want := []string{"ann1", "ann2", "ann3", generated}
		slices.Sort(want)
		if got := s.e3DocumentAnnotations(s.ws, org, doc); !slices.Equal(got, want) {
			t.Fatalf("annotations %v, want %v", got, want)
		}
	})

	t.Run("get", func(t *testing.T) {
		a := s.e3Annotation(s.ws, org, doc, "ann1")
		status, _ := a["status"].(map[string]any)
		loc, _ := a["location"].(map[string]any)
		from, _ := a["from"].(map[string]any)
		meta, _ := a["metadata"].(map[string]any)
		comments, _ := a["comments"].([]any)
		first, _ := comments[0].(map[string]any)
		_, numericLocation := a["locationId"].(float64)
		lastUpdated, _ := first["lastUpdated"].(string)
		if status["id"] != "OPEN" || loc["id"] != "loc-1" || !numericLocation || from["userId"] != "ann" || meta["documentId"] != doc ||
			a["type"] != "comment" || len(comments) != 2 || first["commentText"] != "first" || !e3ISOMillis.MatchString(lastUpdated) {
			t.Fatalf("ann1 = %v", a)
		}
		r := s.ok("/v2/commentannotations/get", map[string]any{"organizationId": org, "documentId": doc, "annotationIds": []string{"ann2", "ghost"}})
		if got := e3AnnotationIDs(t, r); !slices.Equal(got, []string{"ann2", "<null>"}) {
			t.Fatalf("get ann2 and ghost = %v", got)
		}
		for _, c := range []struct {
			filters map[string]any
			want    []string
		}{
			{map[string]any{"userIds": []string{"bob"}}, []string{"ann2"}},
			{map[string]any{"locationIds": []string{"loc-1"}}, []string{"ann1"}},
			{map[string]any{"documentIds": []string{"d2"}}, []string{}},
		} {
			got := e3AnnotationIDs(t, s.ok("/v2/commentannotations/get", with(c.filters, "organizationId", org)))
			if !slices.Equal(got, c.want) {
				t.Errorf("get %v = %v, want %v", c.filters, got, c.want)
			}
		}
		seen, pages := collectPages(t, s, "/v2/commentannotations/get", map[string]any{"organizationId": org, "documentId": doc, "pageSize": 3}, "nextPageToken", "annotationId")
		slices.Sort(seen)
		if pages != 2 || !slices.Equal(seen, s.e3DocumentAnnotations(s.ws, org, doc)) {
			t.Fatalf("%d pages gave %v", pages, seen)
		}
		s.fails("/v2/commentannotations/get", map[string]any{"organizationId": org, "annotationIds": ids("a", 31)}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/commentannotations/get", map[string]any{"documentId": doc}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/commentannotations/get", map[string]any{"organizationId": org, "pageToken": "not-a-token"}, "INVALID_ARGUMENT", 400)
	})

	t.Run("update", func(t *testing.T) {
		resolved := map[string]any{"id": "RESOLVED", "name": "Resolved", "type": "terminal"}
		r := s.ok("/v2/commentannotations/update", in(map[string]any{"annotationIds": []string{"ann1", "ghost"},
			"updatedData": map[string]any{"status": resolved, "resolvedByUserId": "bob", "priority": map[string]any{"id": "P1", "name": "High"}}}))
		expectItems(t, r, map[string]bool{"ann1": true, "ghost": false})
		a := s.e3Annotation(s.ws, org, doc, "ann1")
		if e3JSON(a["status"]) != e3JSON(resolved) || a["resolvedByUserId"] != "bob" || e3JSON(a["priority"]) != `{"id":"P1","name":"High"}` {
			t.Fatalf("ann1 after update = %v", a)
		}
		if b := s.e3Annotation(s.ws, org, doc, "ann2"); b["resolvedByUserId"] != nil {
			t.Fatalf("update reached ann2: %v", b)
		}
		expectItems(t, s.ok("/v2/commentannotations/update", in(map[string]any{"annotationIds": []string{"ann1"},
			"updatedData": map[string]any{"status": map[string]any{"id": "OPEN", "name": "Open", "type": "default"}}})), map[string]bool{"ann1": true})
		if a := s.e3Annotation(s.ws, org, doc, "ann1"); a["resolvedByUserId"] != nil {
			t.Fatalf("a non-terminal status kept resolvedByUserId: %v", a)
		}
		s.fails("/v2/commentannotations/update", in(map[string]any{"updatedData": map[string]any{"priority": map[string]any{"id": "P1", "name": "High"}}}), "INVALID_ARGUMENT", 400)
		s.fails("/v2/commentannotations/update", in(map[string]any{"annotationIds": []string{"ann1"}}), "INVALID_ARGUMENT", 400)
		s.fails("/v2/commentannotations/update", in(map[string]any{"annotationIds": []string{"ann1"}, "updatedData": map[string]any{}}), "INVALID_ARGUMENT", 400)
		s.fails("/v2/commentannotations/update", in(map[string]any{"annotationIds": []string{"ann1"},
			"updatedData": map[string]any{"status": map[string]any{"id": "X", "name": "X", "type": "weird"}}}), "INVALID_ARGUMENT", 400)
	})

	t.Run("comments", func(t *testing.T) {
		scope := func(extra map[string]any) map[string]any { return in(with(extra, "annotationId", "ann2")) }
		r := s.ok("/v2/commentannotations/comments/add", scope(map[string]any{"commentData": []any{e3CommentIn("carol", "hi {{ann}}")}}))
		if e3JSON(r.Data()) != "[2]" {
			t.Fatalf("comments/add = %s, want [2]", r.Raw)
		}
		got := objects(t, s.ok("/v2/commentannotations/comments/get", scope(nil)))
		if len(got) != 2 || got[1]["commentText"] != "hi {{ann}}" || e3JSON(got[1]["to"]) != `[{"userId":"ann"}]` {
			t.Fatalf("comments of ann2 = %v", got)
		}
		r = s.ok("/v2/commentannotations/comments/get", scope(map[string]any{"commentIds": []int{2, 99}}))
		if arr, _ := r.Data().([]any); len(arr) != 2 || arr[1] != nil || e3JSON(arr[0]) == "null" || arr[0].(map[string]any)["commentId"] != 2.0 {
			t.Fatalf("comments/get 2 and 99 = %s", r.Raw)
		}

		r = s.ok("/v2/commentannotations/comments/update", scope(map[string]any{"commentIds": []int{2, 99}, "updatedData": map[string]any{"commentText": "edited"}}))
		expectItems(t, r, map[string]bool{"2": true, "99": false})
		if it := item(t, r, "2"); it["id"] != 2.0 {
			t.Fatalf("comments/update item %v", it)
		}
		if c := objects(t, s.ok("/v2/commentannotations/comments/get", scope(map[string]any{"commentIds": []int{2}})))[0]; c["commentText"] != "edited" || c["status"] != "updated" {
			t.Fatalf("comment 2 after update = %v", c)
		}

		expectItems(t, s.ok("/v2/commentannotations/comments/delete", scope(map[string]any{"commentIds": []int{1, 99}})), map[string]bool{"1": true, "99": false})
		if got := e3CommentTexts(s.e3Annotation(s.ws, org, doc, "ann2")); !slices.Equal(got, []string{`2:"edited"`}) {
			t.Fatalf("comments after delete = %v", got)
		}

		ghost := func(extra map[string]any) map[string]any { return in(with(extra, "annotationId", "ghost")) }
		for path, body := range map[string]map[string]any{
			"comments/add":    ghost(map[string]any{"commentData": []any{e3CommentIn("ann", "x")}}),
			"comments/get":    ghost(nil),
			"comments/update": ghost(map[string]any{"commentIds": []int{1}, "updatedData": map[string]any{"commentText": "x"}}),
			"comments/delete": ghost(map[string]any{"commentIds": []int{1}}),
		} {
			s.fails("/v2/commentannotations/"+path, body, "NOT_FOUND", 404)
		}
		// ann2 lives in d1: naming another document does not reach it.
		s.fails("/v2/commentannotations/comments/get", map[string]any{"organizationId": org, "documentId": "d2", "annotationId": "ann2"}, "NOT_FOUND", 404)
		s.fails("/v2/commentannotations/comments/add", scope(map[string]any{"commentData": []any{}}), "INVALID_ARGUMENT", 400)
		s.fails("/v2/commentannotations/comments/update", scope(map[string]any{"commentIds": []int{2}, "updatedData": map[string]any{}}), "INVALID_ARGUMENT", 400)
		s.fails("/v2/commentannotations/comments/update", scope(map[string]any{"updatedData": map[string]any{"commentText": "x"}}), "INVALID_ARGUMENT", 400)
	})

	t.Run("reactions", func(t *testing.T) {
		react := func(user string) string {
			t.Helper()
			r := s.ok("/v2/commentannotations/reactions/add", in(map[string]any{"annotationId": "ann1", "icon": "HEART", "user": e3User(user)}))
			id, _ := r.DataMap()["reactionId"].(string)
			if id == "" {
				t.Fatalf("reactions/add = %s", r.Raw)
			}
			return id
		}
		first := react("bob")
		if again, other := react("bob"), react("carol"); again != first || other != first {
			t.Fatalf("one icon, several reaction ids: %s %s %s", first, again, other)
		}
		reactors := func() []string {
			var out []string
			list, _ := s.e3Annotation(s.ws, org, doc, "ann1")["reactionAnnotations"].([]any)
			for _, r := range list {
				m := r.(map[string]any)
				for _, fu := range m["fromUsers"].([]any) {
					out = append(out, m["icon"].(string)+"/"+fu.(map[string]any)["from"].(map[string]any)["userId"].(string))
				}
			}
			return out
		}
		if got := reactors(); !slices.Equal(got, []string{"HEART/bob", "HEART/carol"}) {
			t.Fatalf("reactions = %v", got)
		}
		del := func(user string) any {
			t.Helper()
			return s.ok("/v2/commentannotations/reactions/delete", in(map[string]any{"annotationId": "ann1", "icon": "HEART", "userId": user})).DataMap()["removed"]
		}
		if first, again := del("bob"), del("bob"); first != true || again != false {
			t.Fatalf("reactions/delete removed %v, then %v", first, again)
		}
		if got := reactors(); !slices.Equal(got, []string{"HEART/carol"}) {
			t.Fatalf("reactions after delete = %v", got)
		}
		s.fails("/v2/commentannotations/reactions/add", in(map[string]any{"annotationId": "ghost", "icon": "HEART", "user": e3User("bob")}), "NOT_FOUND", 404)
		s.fails("/v2/commentannotations/reactions/add", in(map[string]any{"annotationId": "ann1", "user": e3User("bob")}), "INVALID_ARGUMENT", 400)
		s.fails("/v2/commentannotations/reactions/add", in(map[string]any{"annotationId": "ann1", "icon": "HEART"}), "INVALID_ARGUMENT", 400)
		s.fails("/v2/commentannotations/reactions/delete", in(map[string]any{"annotationId": "ghost", "icon": "HEART", "userId": "carol"}), "NOT_FOUND", 404)
	})

	t.Run("delete", func(t *testing.T) {
		s.fails("/v2/commentannotations/delete", map[string]any{"organizationId": org, "annotationIds": []string{"ann3"}}, "INVALID_ARGUMENT", 400)
		expectItems(t, s.ok("/v2/commentannotations/delete", in(map[string]any{"annotationIds": []string{"ann3", "ghost"}})),
			map[string]bool{"ann3": true, "ghost": false})
		expectItems(t, s.ok("/v2/commentannotations/delete", in(map[string]any{"userIds": []string{"bob"}})), map[string]bool{"ann2": true})
		left := []string{"ann1", generated}
		slices.Sort(left)
		if got := s.e3DocumentAnnotations(s.ws, org, doc); !slices.Equal(got, left) {
			t.Fatalf("left %v, want %v", got, left)
		}
		expectItems(t, s.ok("/v2/commentannotations/delete", in(nil)), map[string]bool{"ann1": true, generated: true})
		if got := s.e3DocumentAnnotations(s.ws, org, doc); len(got) != 0 {
			t.Fatalf("left after deleting the document's annotations: %v", got)
		}
		s.fails("/v2/commentannotations/comments/get", in(map[string]any{"annotationId": "ann1"}), "NOT_FOUND", 404)
	})
}
