package check

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// collabConfig is the shared ConfigMap (its name carries the generator's hash suffix).
func collabConfig(t *testing.T, m *manifests) *corev1.ConfigMap {
	t.Helper()
	var found []*corev1.ConfigMap
	for name, cm := range m.configMaps {
		if strings.HasPrefix(name, configMapPrefix) {
			found = append(found, cm)
		}
	}
	if len(found) != 1 {
		t.Errorf("want one ConfigMap %s, got %d", configMapPrefix, len(found))
		return nil
	}
	return found[0]
}

func checkConfigMap(t *testing.T, m *manifests, cm *corev1.ConfigMap) {
	for _, k := range secretKeys {
		if _, ok := cm.Data[k]; ok {
			t.Errorf("ConfigMap %s holds secret %s; it belongs in Secret %s", cm.Name, k, secretName)
		}
	}
	for _, k := range append([]string{"LISTEN_ADDR", "LOG_LEVEL", "RATE_LIMIT_PER_SECOND", "AUTH_CACHE_TTL"}, gatewayURLVars...) {
		if _, ok := cm.Data[k]; !ok {
			t.Errorf("ConfigMap %s lacks %s", cm.Name, k)
		}
	}
	for _, k := range gatewayURLVars {
		v := cm.Data[k]
		if v == "" {
			continue
		}
		u, err := url.Parse(v)
		if err != nil || u.Scheme != "http" || u.Port() != "8080" {
			t.Errorf("%s = %q, want http://<service>:8080", k, v)
			continue
		}
		if m.services[u.Hostname()] == nil || m.deployments[u.Hostname()] == nil {
			t.Errorf("%s points at %q, which has no Service and Deployment here", k, u.Hostname())
		}
	}
	for _, s := range backendServices(t) {
		if want := "http://" + s + ":8080"; cm.Data[urlVar(s)] != want {
			t.Errorf("%s = %q, want %q: the gateway would not route to %s", urlVar(s), cm.Data[urlVar(s)], want, s)
		}
	}
}

func checkDeployment(t *testing.T, d *appsv1.Deployment, cm *corev1.ConfigMap) {
	name := d.Name
	tpl := d.Spec.Template
	for where, l := range map[string]map[string]string{"metadata": d.Labels, "template": tpl.Labels} {
		if l["app.kubernetes.io/name"] != name {
			t.Errorf("%s label app.kubernetes.io/name = %q, want %q", where, l["app.kubernetes.io/name"], name)
		}
	}
	if !selects(t, d.Spec.Selector, tpl.Labels) {
		t.Errorf("selector %v does not select the pod template's labels %v", d.Spec.Selector, tpl.Labels)
	}
	pod := tpl.Spec
	psc := pod.SecurityContext
	if psc == nil || !isTrue(psc.RunAsNonRoot) || psc.RunAsUser == nil || *psc.RunAsUser != 65532 {
		t.Errorf("pod securityContext %+v: want runAsNonRoot true, runAsUser 65532", psc)
	}
	if psc == nil || psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Error("pod seccompProfile is not RuntimeDefault")
	}
	if len(pod.Containers) != 1 || pod.Containers[0].Name != name {
		t.Fatalf("want one container named %s, got %d", name, len(pod.Containers))
	}
	c := pod.Containers[0]
	checkContainerSecurity(t, c, psc)
	checkProbes(t, c)
	checkResources(t, c)
	checkEnv(t, name, c, cm)
	checkTmp(t, pod, c)
}

func isTrue(b *bool) bool  { return b != nil && *b }
func isFalse(b *bool) bool { return b != nil && !*b }

func checkContainerSecurity(t *testing.T, c corev1.Container, psc *corev1.PodSecurityContext) {
	sc := c.SecurityContext
	if sc == nil {
		t.Fatal("container has no securityContext")
	}
	if !isTrue(sc.ReadOnlyRootFilesystem) {
		t.Error("readOnlyRootFilesystem is not true")
	}
	if !isFalse(sc.AllowPrivilegeEscalation) {
		t.Error("allowPrivilegeEscalation is not false")
	}
	if isTrue(sc.Privileged) {
		t.Error("container is privileged")
	}
	if sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") || len(sc.Capabilities.Add) != 0 {
		t.Errorf("capabilities %+v: want drop ALL and add none", sc.Capabilities)
	}
	if isFalse(sc.RunAsNonRoot) || (sc.RunAsNonRoot == nil && (psc == nil || !isTrue(psc.RunAsNonRoot))) {
		t.Error("container may run as root")
	}
	if sc.RunAsUser != nil && *sc.RunAsUser == 0 {
		t.Error("container runAsUser 0")
	}
}

// containerPort resolves a probe's or Service's target port against the container's ports.
func containerPort(c corev1.Container, p intstr.IntOrString) int32 {
	if p.Type == intstr.Int {
		return p.IntVal
	}
	for _, cp := range c.Ports {
		if cp.Name == p.StrVal {
			return cp.ContainerPort
		}
	}
	return 0
}

func checkProbes(t *testing.T, c corev1.Container) {
	for _, p := range []struct {
		kind  string
		probe *corev1.Probe
		path  string
	}{
		{"liveness", c.LivenessProbe, "/healthz"},
		{"readiness", c.ReadinessProbe, "/readyz"},
	} {
		if p.probe == nil || p.probe.HTTPGet == nil {
			t.Errorf("no HTTP %s probe", p.kind)
			continue
		}
		if got := p.probe.HTTPGet.Path; got != p.path {
			t.Errorf("%s probe path %q, want %q", p.kind, got, p.path)
		}
		if port := containerPort(c, p.probe.HTTPGet.Port); port != 8080 {
			t.Errorf("%s probe port %s resolves to %d, want 8080", p.kind, p.probe.HTTPGet.Port.String(), port)
		}
	}
}

func checkResources(t *testing.T, c corev1.Container) {
	r := c.Resources
	for what, q := range map[string]corev1.ResourceList{"requests": r.Requests, "limits": r.Limits} {
		if mem, ok := q[corev1.ResourceMemory]; !ok || mem.IsZero() {
			t.Errorf("resources.%s.memory not set", what)
		}
	}
	if cpu, ok := r.Requests[corev1.ResourceCPU]; !ok || cpu.IsZero() {
		t.Error("resources.requests.cpu not set")
	}
	if r.Requests.Memory().Cmp(*r.Limits.Memory()) > 0 {
		t.Error("memory request above limit")
	}
}

// checkEnv: non-secret config from collab-config, secrets only from collab-secrets; the keys a
// service needs are required (a missing key stops the pod), only optionalSecrets may be optional.
func checkEnv(t *testing.T, service string, c corev1.Container, cm *corev1.ConfigMap) {
	required := append([]string{"INTERNAL_SECRET", "REDIS_URL"}, serviceSecrets[service]...)
	if usesMongo(service) {
		required = append(required, "MONGO_URI")
	}
	whole, fromConfig := false, false // envFrom the whole Secret / ConfigMap
	for _, ef := range c.EnvFrom {
		switch {
		case ef.SecretRef != nil:
			if ef.SecretRef.Name != secretName || isTrue(ef.SecretRef.Optional) {
				t.Errorf("envFrom secret %q (optional %v): want required %s", ef.SecretRef.Name, isTrue(ef.SecretRef.Optional), secretName)
			}
			whole = true
		case ef.ConfigMapRef != nil:
			if cm == nil || ef.ConfigMapRef.Name != cm.Name {
				t.Errorf("envFrom ConfigMap %q is not the generated %s", ef.ConfigMapRef.Name, configMapPrefix)
			}
			fromConfig = true
		}
	}
	if !fromConfig {
		t.Errorf("no envFrom of ConfigMap %s", configMapPrefix)
	}
	values := map[string]string{}
	fromSecret := map[string]bool{}
	for _, e := range c.Env {
		values[e.Name] = e.Value
		if e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
			if slices.Contains(secretKeys, e.Name) {
				t.Errorf("env %s is a secret: take it from Secret %s, not from the manifest", e.Name, secretName)
			}
			continue
		}
		ref := e.ValueFrom.SecretKeyRef
		if ref.Name != secretName {
			t.Errorf("env %s from Secret %q, want %s", e.Name, ref.Name, secretName)
		}
		if isTrue(ref.Optional) && !slices.Contains(optionalSecrets, ref.Key) {
			t.Errorf("env %s: secret key %s is optional; only %v may be", e.Name, ref.Key, optionalSecrets)
		}
		fromSecret[ref.Key] = !isTrue(ref.Optional)
	}
	for _, k := range required {
		if !whole && !fromSecret[k] {
			t.Errorf("%s is not a required key of Secret %s", k, secretName)
		}
	}
	if usesMongo(service) {
		if want := "collab_" + strings.TrimPrefix(service, "svc-"); values["MONGO_DB"] != want {
			t.Errorf("MONGO_DB = %q, want %q", values["MONGO_DB"], want)
		}
	}
}

func checkTmp(t *testing.T, pod corev1.PodSpec, c corev1.Container) {
	for _, vm := range c.VolumeMounts {
		if vm.MountPath != "/tmp" {
			continue
		}
		for _, v := range pod.Volumes {
			if v.Name == vm.Name && v.EmptyDir != nil {
				return
			}
		}
	}
	t.Error("/tmp is not an emptyDir (the root filesystem is read-only)")
}

func checkService(t *testing.T, s *corev1.Service, d *appsv1.Deployment) {
	if s == nil {
		t.Fatal("no Service of the same name")
	}
	if s.Spec.Type != "" && s.Spec.Type != corev1.ServiceTypeClusterIP {
		t.Errorf("type %s, want ClusterIP", s.Spec.Type)
	}
	if len(s.Spec.Selector) == 0 || !labelsMatch(s.Spec.Selector, d.Spec.Template.Labels) {
		t.Errorf("selector %v does not select the pods %v", s.Spec.Selector, d.Spec.Template.Labels)
	}
	if len(s.Spec.Ports) != 1 || s.Spec.Ports[0].Port != 8080 {
		t.Fatalf("ports %+v: want one port 8080", s.Spec.Ports)
	}
	if got := containerPort(d.Spec.Template.Spec.Containers[0], s.Spec.Ports[0].TargetPort); got != 8080 {
		t.Errorf("targetPort %s resolves to %d, want 8080", s.Spec.Ports[0].TargetPort.String(), got)
	}
}

func labelsMatch(selector, podLabels map[string]string) bool {
	for k, v := range selector {
		if podLabels[k] != v {
			return false
		}
	}
	return true
}
