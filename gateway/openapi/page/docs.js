// Renders the OpenAPI document embedded in the page (script#openapi):
// navigation by tag, one section per operation with its request and
// response fields, error statuses and examples. No network access.
(function () {
  "use strict";
  var spec = JSON.parse(document.getElementById("openapi").textContent);
  var schemas = (spec.components && spec.components.schemas) || {};

  function el(tag, attrs, children) {
    var n = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) {
      n.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return n;
  }

  // text renders `code` spans and paragraphs of a description.
  function text(s) {
    var box = el("div");
    String(s || "").split(/\n\s*\n/).forEach(function (para) {
      var p = el("p");
      para.split("`").forEach(function (part, i) {
        p.appendChild(i % 2 ? el("code", {}, [part]) : document.createTextNode(part));
      });
      box.appendChild(p);
    });
    return box;
  }

  function refName(ref) { return ref.split("/").pop(); }

  // resolve follows $ref and merges allOf into one schema.
  function resolve(s, depth) {
    depth = depth || 0;
    if (!s || depth > 8) return s || {};
    if (s.$ref) {
      var base = resolve(schemas[refName(s.$ref)], depth + 1);
      var rest = Object.assign({}, s);
      delete rest.$ref;
      return Object.keys(rest).length ? merge(base, resolve(rest, depth + 1)) : base;
    }
    if (s.allOf) {
      var out = Object.assign({}, s);
      delete out.allOf;
      s.allOf.forEach(function (part) { out = merge(resolve(part, depth + 1), out); });
      return out;
    }
    return s;
  }

  function merge(a, b) {
    var out = Object.assign({}, a, b);
    out.properties = Object.assign({}, a.properties, b.properties);
    out.required = (a.required || []).concat(b.required || []);
    return out;
  }

  function typeOf(s) {
    if (!s) return "any";
    if (s.$ref) return refName(s.$ref);
    if (s.oneOf) return s.oneOf.map(typeOf).join(" | ");
    if (s.allOf) return typeOf(resolve(s));
    if (s.const !== undefined) return JSON.stringify(s.const);
    var t = Array.isArray(s.type) ? s.type.join(" | ") : s.type;
    if (t === "array") return typeOf(s.items) + "[]";
    if (t === "object" && s.additionalProperties && typeof s.additionalProperties === "object") {
      return "map of " + typeOf(s.additionalProperties);
    }
    if (s.enum) return s.enum.map(function (v) { return JSON.stringify(v); }).join(" | ");
    return t || "any";
  }

  function limits(s) {
    var out = [];
    [["minLength", "min length"], ["maxLength", "max length"], ["minItems", "min items"], ["maxItems", "max items"],
     ["minimum", "min"], ["maximum", "max"], ["default", "default"]].forEach(function (p) {
      if (s[p[0]] !== undefined) out.push(p[1] + " " + JSON.stringify(s[p[0]]));
    });
    if (s.items && s.items.maxLength !== undefined) out.push("items max length " + s.items.maxLength);
    return out.join(", ");
  }

  // fields renders an object schema's properties as a table, nested one
  // level deep for inline objects.
  function fields(schema, prefix, rows, depth) {
    var s = resolve(schema);
    var req = s.required || [];
    Object.keys(s.properties || {}).forEach(function (name) {
      var p = s.properties[name];
      var r = resolve(p);
      var desc = [p.description || r.description || "", limits(r)].filter(Boolean).join(" — ");
      rows.push(el("tr", {}, [
        el("td", {}, [el("code", {}, [prefix + name]), req.indexOf(name) >= 0 ? el("span", {"class": "req"}, [" required"]) : ""]),
        el("td", {}, [el("code", {}, [typeOf(p)])]),
        el("td", {}, [desc])
      ]));
      if (depth < 2 && !p.$ref && r.properties) fields(r, prefix + name + ".", rows, depth + 1);
    });
    return rows;
  }

  function fieldTable(schema) {
    var rows = fields(schema, "", [], 0);
    if (!rows.length) return el("p", {}, [el("code", {}, [typeOf(schema)])]);
    return el("table", {}, [el("tr", {}, [el("th", {}, ["field"]), el("th", {}, ["type"]), el("th", {}, ["notes"])])].concat(rows));
  }

  function security(op) {
    var names = [];
    (op.security || []).forEach(function (req) { names.push(Object.keys(req).map(function (k) {
      var sch = spec.components.securitySchemes[k];
      return sch.in === "query" ? "?" + sch.name : sch.name;
    }).join(" + ")); });
    names = names.filter(Boolean);
    return names.length ? "Auth: " + names.join(" or ") : "Auth: none";
  }

  function operation(path, method, op) {
    var sec = el("section", {"class": "op", id: op.operationId, "data-path": path});
    sec.appendChild(el("h3", {}, [el("span", {"class": "method " + method}, [method.toUpperCase()]), path]));
    sec.appendChild(el("div", {"class": "summary"}, [op.summary || ""]));
    sec.appendChild(el("div", {"class": "auth"}, [security(op) + (op["x-feature"] ? " · feature " + op["x-feature"] : "")]));
    if (op.description) sec.appendChild(text(op.description));
    var body = op.requestBody && op.requestBody.content["application/json"];
    if (body) {
      sec.appendChild(el("h4", {}, ["Request: data"]));
      sec.appendChild(fieldTable(body.schema.properties.data));
      if (body.example) sec.appendChild(el("pre", {}, [JSON.stringify(body.example, null, 2)]));
    }
    (op.parameters || []).forEach(function (p, i) {
      if (!i) sec.appendChild(el("h4", {}, ["Parameters"]));
      sec.appendChild(el("div", {}, [el("code", {}, [p.in + " " + p.name]), " — " + (p.description || "")]));
    });
    var ok = op.responses["200"] && op.responses["200"].content && op.responses["200"].content["application/json"];
    if (ok && ok.schema.properties && ok.schema.properties.result) {
      var result = ok.schema.properties.result;
      sec.appendChild(el("h4", {}, [result.properties.data ? "Response: result.data" : "Response: result"]));
      sec.appendChild(fieldTable(result.properties.data || result));
      if (ok.example) sec.appendChild(el("pre", {}, [JSON.stringify(ok.example, null, 2)]));
    }
    var errs = Object.keys(op.responses).filter(function (c) { return c !== "200"; }).sort();
    if (errs.length) {
      sec.appendChild(el("h4", {}, ["Other responses"]));
      sec.appendChild(el("table", {"class": "errors"}, errs.map(function (c) {
        var r = op.responses[c];
        if (r.$ref) r = spec.components.responses[refName(r.$ref)];
        return el("tr", {}, [el("td", {}, [c]), el("td", {}, [text(r.description)])]);
      })));
    }
    return sec;
  }

  function render() {
    var main = document.getElementById("main");
    var nav = document.getElementById("nav");
    main.textContent = "";
    document.getElementById("title").textContent = spec.info.title + " " + spec.info.version;
    main.appendChild(el("section", {id: "intro"}, [text(spec.info.description)]));
    var byTag = {};
    Object.keys(spec.paths).sort().forEach(function (path) {
      Object.keys(spec.paths[path]).forEach(function (method) {
        var op = spec.paths[path][method];
        var tag = (op.tags || ["Other"])[0];
        (byTag[tag] = byTag[tag] || []).push([path, method, op]);
      });
    });
    (spec.tags || []).forEach(function (t) {
      var ops = byTag[t.name];
      if (!ops) return;
      nav.appendChild(el("h3", {}, [t.name]));
      var group = el("section", {"class": "tag", id: "tag-" + t.name.replace(/\W+/g, "-")}, [el("h2", {}, [t.name]), text(t.description)]);
      ops.forEach(function (o) {
        nav.appendChild(el("a", {href: "#" + o[2].operationId, "data-path": o[0]}, [o[0]]));
        group.appendChild(operation(o[0], o[1], o[2]));
      });
      main.appendChild(group);
    });
  }

  function filter(q) {
    q = q.toLowerCase();
    Array.prototype.forEach.call(document.querySelectorAll(".op, nav a"), function (n) {
      var hit = !q || n.getAttribute("data-path").toLowerCase().indexOf(q) >= 0 || n.textContent.toLowerCase().indexOf(q) >= 0;
      n.classList.toggle("hidden", !hit);
    });
  }

  render();
  document.getElementById("filter").addEventListener("input", function (e) { filter(e.target.value); });
})();
