package check

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/json"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

const (
	secretName       = "collab-secrets"
	configMapPrefix  = "collab-config"
	overlayNamespace = "collab"
)

// manifests is the output of one kustomize build, decoded into typed API objects by name.
type manifests struct {
	deployments map[string]*appsv1.Deployment
	services    map[string]*corev1.Service
	configMaps  map[string]*corev1.ConfigMap
	hpas        map[string]*autoscalingv2.HorizontalPodAutoscaler
	pdbs        map[string]*policyv1.PodDisruptionBudget
	namespaces  map[string]string // "Kind/name" -> metadata.namespace
}

// decodeInto decodes one resource strictly, the way the API server does: unknown or duplicate
// fields fail, and field names match case-sensitively. (yaml.UnmarshalStrict and
// json.Decoder.DisallowUnknownFields both match names case-insensitively, so they would accept
// "readOnlyRootFileSystem" and the API server would drop it.)
func decodeInto[T any](t *testing.T, id string, y []byte, into map[string]*T, name string) {
	t.Helper()
	obj := new(T)
	j, err := yaml.YAMLToJSONStrict(y)
	if err != nil {
		t.Errorf("%s: %v", id, err)
		return
	}
	strict, err := json.UnmarshalStrict(j, obj)
	if err == nil {
		err = errors.Join(strict...)
	}
	if err != nil {
		t.Errorf("%s does not decode strictly into %T: %v", id, obj, err)
		return
	}
	if _, dup := into[name]; dup {
		t.Errorf("%s appears twice", id)
	}
	into[name] = obj
}

// build runs kustomize on dir (relative to the repository root) like `kubectl kustomize` does
// and decodes each resource by apiVersion and kind. A kind the check doesn't know fails:
// teach the check about a new kind when you add one.
func build(t *testing.T, dir string) *manifests {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	rm, err := k.Run(filesys.MakeFsOnDisk(), filepath.Join(repoRoot(t), dir))
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	m := &manifests{
		deployments: map[string]*appsv1.Deployment{},
		services:    map[string]*corev1.Service{},
		configMaps:  map[string]*corev1.ConfigMap{},
		hpas:        map[string]*autoscalingv2.HorizontalPodAutoscaler{},
		pdbs:        map[string]*policyv1.PodDisruptionBudget{},
		namespaces:  map[string]string{},
	}
	for _, r := range rm.Resources() {
		y, err := r.AsYAML()
		if err != nil {
			t.Fatalf("%s: %v", r.CurId(), err)
		}
		gvk, name := r.GetGvk(), r.GetName()
		id := gvk.ApiVersion() + " " + gvk.Kind + "/" + name
		m.namespaces[gvk.Kind+"/"+name] = r.GetNamespace()
		switch gvk.ApiVersion() + " " + gvk.Kind {
		case "apps/v1 Deployment":
			decodeInto(t, id, y, m.deployments, name)
		case "v1 Service":
			decodeInto(t, id, y, m.services, name)
		case "v1 ConfigMap":
			decodeInto(t, id, y, m.configMaps, name)
		case "autoscaling/v2 HorizontalPodAutoscaler":
			decodeInto(t, id, y, m.hpas, name)
		case "policy/v1 PodDisruptionBudget":
			decodeInto(t, id, y, m.pdbs, name)
		default:
			t.Errorf("%s: kind not allowed here (a Secret must never be in the tree; another kind needs a decoder in k8s_test.go)", id)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return m
}

func TestKustomizeBase(t *testing.T) {
	m := build(t, "deploy/k8s/base")
	checkCommon(t, m)
	for name, d := range m.deployments {
		if d.Spec.Replicas == nil || *d.Spec.Replicas != 2 {
			t.Errorf("base Deployment %s: replicas %v, want 2", name, d.Spec.Replicas)
		}
	}
	if len(m.hpas)+len(m.pdbs) != 0 {
		t.Error("the base carries HPAs or PDBs; they belong to overlays")
	}
}

func TestKustomizeProduction(t *testing.T) {
	m := build(t, "deploy/k8s/overlays/production")
	checkCommon(t, m)
	for id, ns := range m.namespaces {
		if ns != overlayNamespace {
			t.Errorf("%s: namespace %q, want %q", id, ns, overlayNamespace)
		}
	}
	for _, want := range []string{"gateway", "svc-identity"} {
		if m.hpas[want] == nil {
			t.Errorf("no HorizontalPodAutoscaler for %s", want)
		}
	}
	checkHPAs(t, m)
	checkPDBs(t, m)
	for name, d := range m.deployments {
		if _, autoscaled := m.hpas[name]; !autoscaled && (d.Spec.Replicas == nil || *d.Spec.Replicas < 2) {
			t.Errorf("Deployment %s: replicas %v, want >= 2", name, d.Spec.Replicas)
		}
		for _, c := range d.Spec.Template.Spec.Containers {
			if !pinnedImage(c.Image) {
				t.Errorf("Deployment %s: image %q is not pinned to a release tag (set it with `images:`)", name, c.Image)
			}
			if want := "opencollab/" + name + ":v" + serviceVersion(t, name); c.Image != want {
				t.Errorf("Deployment %s: image %q, want %q (the image `make images` builds from %s/VERSION)", name, c.Image, want, name)
			}
		}
	}
}

// pinnedImage: registry/name:tag or @digest, the tag neither latest nor the base's dev.
func pinnedImage(image string) bool {
	if strings.Contains(image, "@sha256:") {
		return true
	}
	slash := strings.LastIndex(image, "/")
	colon := strings.LastIndex(image, ":")
	if slash < 0 || colon < slash {
		return false
	}
	tag := image[colon+1:]
	return tag != "latest" && tag != "dev"
}

func checkHPAs(t *testing.T, m *manifests) {
	for name, h := range m.hpas {
		ref := h.Spec.ScaleTargetRef
		d := m.deployments[ref.Name]
		if ref.Kind != "Deployment" || ref.APIVersion != "apps/v1" || d == nil {
			t.Errorf("HPA %s targets %s %s/%s, which is not a Deployment here", name, ref.APIVersion, ref.Kind, ref.Name)
			continue
		}
		if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas < 2 || h.Spec.MaxReplicas < *h.Spec.MinReplicas {
			t.Errorf("HPA %s: min %v max %d, want 2 <= min <= max", name, h.Spec.MinReplicas, h.Spec.MaxReplicas)
		}
		if len(h.Spec.Metrics) == 0 {
			t.Errorf("HPA %s has no metrics", name)
		}
		// kubectl apply would reset the scale to spec.replicas on every rollout.
		if d.Spec.Replicas != nil {
			t.Errorf("Deployment %s is autoscaled by HPA %s but still sets replicas %d", ref.Name, name, *d.Spec.Replicas)
		}
	}
}

func checkPDBs(t *testing.T, m *manifests) {
	for name, d := range m.deployments {
		covered := false
		for _, p := range m.pdbs {
			if selects(t, p.Spec.Selector, d.Spec.Template.Labels) {
				covered = true
			}
		}
		if !covered {
			t.Errorf("no PodDisruptionBudget selects the pods of Deployment %s", name)
		}
	}
	for name, p := range m.pdbs {
		if p.Spec.MaxUnavailable == nil && p.Spec.MinAvailable == nil {
			t.Errorf("PDB %s sets neither maxUnavailable nor minAvailable", name)
		}
	}
}

func selects(t *testing.T, sel *metav1.LabelSelector, podLabels map[string]string) bool {
	t.Helper()
	if sel == nil {
		return false
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		t.Errorf("selector %v: %v", sel, err)
		return false
	}
	return !s.Empty() && s.Matches(labels.Set(podLabels))
}

// checkCommon holds for the base and for every overlay.
func checkCommon(t *testing.T, m *manifests) {
	for _, svc := range deployedServices(t) {
		if m.deployments[svc] == nil || m.services[svc] == nil {
			t.Errorf("%s has no Deployment and Service (copy deploy/k8s/base/svc-identity and list it in base/kustomization.yaml)", svc)
		}
	}
	cm := collabConfig(t, m)
	for name, d := range m.deployments {
		t.Run("Deployment "+name, func(t *testing.T) { checkDeployment(t, d, cm) })
		t.Run("Service "+name, func(t *testing.T) { checkService(t, m.services[name], d) })
	}
	if cm != nil {
		checkConfigMap(t, m, cm)
	}
	checkMemoryReplicas(t, m)
	if slices.ContainsFunc(deployedServices(t), func(s string) bool { return m.deployments[s] == nil }) {
		t.FailNow()
	}
}
