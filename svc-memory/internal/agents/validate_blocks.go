package agents

import (
	"encoding/json"
	"slices"
)

func validateResponse(cfg object) error {
	resp, err := cfg.object("response", "response")
	if err != nil || resp == nil {
		return err
	}
	if _, err := resp.enum("responseAdapter", "response.responseAdapter", responseAdapters...); err != nil {
		return err
	}
	if _, err := resp.bool("useAiFormatting", "response.useAiFormatting"); err != nil {
		return err
	}
	return validateAIConfig(resp, "response.aiConfig", false)
}

func validatePostProcess(cfg object) error {
	pp, err := cfg.object("postProcess", "postProcess")
	if err != nil || pp == nil {
		return err
	}
	if err := pp.onlyKeys("postProcess", postProcessStages...); err != nil {
		return err
	}
	for _, stage := range postProcessStages {
		if stage == "customProcessors" {
			if _, err := pp.stringsIn(stage, "postProcess."+stage); err != nil {
				return err
			}
			continue
		}
		st, err := pp.object(stage, "postProcess."+stage)
		if err != nil || st == nil {
			if err != nil {
				return err
			}
			continue
		}
		if _, err := st.bool("enabled", "postProcess."+stage+".enabled"); err != nil {
			return err
		}
		if stage == "annotations" {
			if _, err := st.enum("strategy", "postProcess.annotations.strategy", "findings", "word-level", "page-level", "none"); err != nil {
				return err
			}
		}
	}
	return nil
}

func validateInput(cfg object) error {
	in, err := cfg.object("input", "input")
	if err != nil || in == nil {
		return err
	}
	if _, err := in.stringsIn("variableKeys", "input.variableKeys"); err != nil {
		return err
	}
	list, err := in.array("userContextFields", "input.userContextFields")
	if err != nil {
		return err
	}
	fields, err := items(list, "input.userContextFields")
	if err != nil {
		return err
	}
	for i, f := range fields {
		for _, k := range []string{"id", "title"} {
			if _, err := f.requiredString(k, itemPath("input.userContextFields", i, k)); err != nil {
				return err
			}
		}
		path := itemPath("input.userContextFields", i, "type")
		if !f.present("type") {
			return invalid("field %s is required", path)
		}
		if _, err := f.enum("type", path, "string", "number", "boolean"); err != nil {
			return err
		}
	}
	return nil
}

func validateScope(cfg object) error {
	scope, err := cfg.object("scope", "scope")
	if err != nil || scope == nil {
		return err
	}
	cross, err := scope.object("crossPage", "scope.crossPage")
	if err != nil || cross == nil {
		return err
	}
	if !cross.present("enabled") {
		return invalid("field scope.crossPage.enabled is required")
	}
	if _, err := cross.bool("enabled", "scope.crossPage.enabled"); err != nil {
		return err
	}
	if _, err := cross.requiredString("targetProperty", "scope.crossPage.targetProperty"); err != nil {
		return err
	}
	if !cross.present("pageDiscovery") {
		return invalid("field scope.crossPage.pageDiscovery is required")
	}
	_, err = cross.enum("pageDiscovery", "scope.crossPage.pageDiscovery", "auto", "manual")
	return err
}

func validateSetup(cfg object) error {
	_, err := cfg.object("setup", "setup")
	return err
}

// validateMetadata checks a metadata object: free keys except the reserved
// ones.
func validateMetadata(raw json.RawMessage) error {
	m := object{"metadata": raw}
	md, err := m.object("metadata", "metadata")
	if err != nil {
		return err
	}
	for _, k := range reservedMetadata {
		if _, taken := md[k]; taken {
			return invalid("field metadata.%s is reserved", k)
		}
	}
	return nil
}

// dropSupportedVariables removes input.supportedVariables, which is
// computed by the server (response-only).
func dropSupportedVariables(cfg object) {
	in, err := cfg.object("input", "input")
	if err != nil || in == nil {
		return
	}
	if _, sent := in["supportedVariables"]; !sent {
		return
	}
	delete(in, "supportedVariables")
	cfg["input"], _ = json.Marshal(in)
}

// isIdentityField reports whether key is stored on the root record rather
// than in a version.
func isIdentityField(key string) bool {
	return slices.Contains([]string{"name", "description", "enabled", "metadata", "managedBy"}, key) ||
		slices.Contains(serverOwned, key)
}
