package agents

import "slices"

// Allowed values (adjacent-operations §12).
var (
	strategies = []string{"web-page-text", "web-page-screenshot", "web-page-html", "web-page-css", "web-page-links",
		"web-page-accessibility", "computed-styles", "robots-txt", "sitemap-data", "lighthouse", "rest-api", "none"}
	executionStrategies = []string{"ai", "service", "service+ai", "stagehand-agent", "mcp-tools"}
	serviceIDs          = []string{"broken-links", "crawler", "screenshot", "accessibility-checker", "og-image-checker"}
	responseAdapters    = []string{"broken-links-response", "crawler-response", "screenshot-response",
		"accessibility-checker-response", "og-image-checker-response"}
	postProcessStages = []string{"guardrails", "deletePreviousSuggestions", "analytics", "annotations", "matchAndMerge", "customProcessors"}
	aiProviders       = []string{"gemini", "claude", "openai"}
	reservedMetadata  = []string{"type", "category", "internal", "apiKey"}
)

// behaviouralFields are the versioned fields; every other non-identity
// field a client sends is versioned too (extra fields pass through).
var behaviouralFields = []string{"rawInstructions", "instructions", "phaseTimeoutMs", "contextGathering",
	"execution", "response", "postProcess", "input", "scope", "setup"}

// serverOwned fields are set by the server and dropped from input;
// managedBy is refused instead (the spec names it).
var serverOwned = []string{"agentId", "id", "version", "system", "createdAt", "essentialDefault",
	"executionCount", "lastExecutedAt"}

// validateConfig checks the behavioural configuration of a version: the
// required and conditional rules of create (§12) on the top-level blocks
// and the strict sub-objects. Deeper open schemas (strategy options other
// than rest-api, response descriptions, setup samples, ...) are stored as
// given.
func validateConfig(cfg object) error {
	exec, err := cfg.requiredObject("execution", "execution")
	if err != nil {
		return err
	}
	strategy, err := validateExecution(exec)
	if err != nil {
		return err
	}
	if err := validateContextGathering(cfg); err != nil {
		return err
	}
	instructions, err := cfg.string("instructions", "instructions")
	if err != nil {
		return err
	}
	if strategy != "service" && isBlank(instructions) {
		return invalid("field instructions is required unless execution.executionStrategy is service")
	}
	if _, err := cfg.string("rawInstructions", "rawInstructions"); err != nil {
		return err
	}
	if _, err := cfg.integer("phaseTimeoutMs", "phaseTimeoutMs", 1, 0); err != nil {
		return err
	}
	for _, f := range []func(object) error{validateResponse, validatePostProcess, validateInput, validateScope, validateSetup} {
		if err := f(cfg); err != nil {
			return err
		}
	}
	return nil
}

func isBlank(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
			return false
		}
	}
	return true
}

func validateExecution(exec object) (string, error) {
	strategy, err := exec.enum("executionStrategy", "execution.executionStrategy", executionStrategies...)
	if err != nil {
		return "", err
	}
	if strategy == "" {
		strategy = "ai"
	}
	serviceID, err := exec.enum("serviceId", "execution.serviceId", serviceIDs...)
	if err != nil {
		return "", err
	}
	if (strategy == "service" || strategy == "service+ai") && serviceID == "" {
		return "", invalid("field execution.serviceId is required when executionStrategy is %s", strategy)
	}
	if err := validateMCPServers(exec, strategy == "mcp-tools"); err != nil {
		return "", err
	}
	if err := validateAIConfig(exec, "execution.aiConfig", true); err != nil {
		return "", err
	}
	knowledge, err := exec.object("knowledge", "execution.knowledge")
	if err != nil || knowledge == nil {
		return strategy, err
	}
	if err := knowledge.onlyKeys("execution.knowledge", "useMemory", "maxChunks", "maxPatterns", "maxActivities"); err != nil {
		return "", err
	}
	if _, err := knowledge.bool("useMemory", "execution.knowledge.useMemory"); err != nil {
		return "", err
	}
	for _, k := range []string{"maxChunks", "maxPatterns", "maxActivities"} {
		if _, err := knowledge.integer(k, "execution.knowledge."+k, 1, 20); err != nil {
			return "", err
		}
	}
	return strategy, nil
}

func validateMCPServers(exec object, required bool) error {
	const path = "execution.mcpServers"
	list, err := exec.array("mcpServers", path)
	if err != nil {
		return err
	}
	if list == nil {
		if required {
			return invalid("field %s is required when executionStrategy is mcp-tools", path)
		}
		return nil
	}
	if len(list) < 1 || len(list) > 5 {
		return invalid("field %s must hold 1 to 5 servers", path)
	}
	servers, err := items(list, path)
	if err != nil {
		return err
	}
	for i, s := range servers {
		for _, k := range []string{"id", "url"} {
			if _, err := s.requiredString(k, itemPath(path, i, k)); err != nil {
				return err
			}
		}
		if _, err := s.enum("transport", itemPath(path, i, "transport"), "http"); err != nil {
			return err
		}
		if _, err := s.integer("timeoutMs", itemPath(path, i, "timeoutMs"), 1, 120000); err != nil {
			return err
		}
	}
	return nil
}

// validateAIConfig checks a strict aiConfig object in parent.
func validateAIConfig(parent object, path string, toolTurns bool) error {
	ai, err := parent.object("aiConfig", path)
	if err != nil || ai == nil {
		return err
	}
	allowed := []string{"provider", "model", "responseMimeType"}
	if toolTurns {
		allowed = append(allowed, "maxToolTurns")
		if _, err := ai.integer("maxToolTurns", path+".maxToolTurns", 1, 16); err != nil {
			return err
		}
	}
	if err := ai.onlyKeys(path, allowed...); err != nil {
		return err
	}
	_, err = ai.enum("provider", path+".provider", aiProviders...)
	return err
}

func validateContextGathering(cfg object) error {
	cg, err := cfg.requiredObject("contextGathering", "contextGathering")
	if err != nil {
		return err
	}
	list, err := cg.stringsIn("strategies", "contextGathering.strategies", strategies...)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return invalid("field contextGathering.strategies is required and needs at least 1 item")
	}
	if err := validateAIConfig(cg, "contextGathering.aiConfig", false); err != nil {
		return err
	}
	opts, err := cg.object("strategyOptions", "contextGathering.strategyOptions")
	if err != nil {
		return err
	}
	if slices.Contains(list, "rest-api") {
		if err := validateRESTAPI(opts); err != nil {
			return err
		}
	}
	styles, err := opts.object("computed-styles", "contextGathering.strategyOptions.computed-styles")
	if err != nil || styles == nil {
		return err
	}
	_, err = styles.array("selectors", "contextGathering.strategyOptions.computed-styles.selectors")
	if err == nil && !styles.present("selectors") {
		err = invalid("field contextGathering.strategyOptions.computed-styles.selectors is required")
	}
	return err
}

func validateRESTAPI(opts object) error {
	const path = "contextGathering.strategyOptions.rest-api"
	if !opts.present("rest-api") {
		return invalid("field %s is required when contextGathering.strategies lists rest-api", path)
	}
	rest, err := opts.object("rest-api", path)
	if err != nil {
		return err
	}
	list, err := rest.array("endpoints", path+".endpoints")
	if err != nil {
		return err
	}
	if len(list) < 1 || len(list) > 10 {
		return invalid("field %s.endpoints must hold 1 to 10 endpoints", path)
	}
	endpoints, err := items(list, path+".endpoints")
	if err != nil {
		return err
	}
	for i, e := range endpoints {
		for _, k := range []string{"description", "url"} {
			if _, err := e.requiredString(k, itemPath(path+".endpoints", i, k)); err != nil {
				return err
			}
		}
		if _, err := e.enum("method", itemPath(path+".endpoints", i, "method"), "GET", "POST", "PUT", "PATCH", "DELETE"); err != nil {
			return err
		}
	}
	_, err = rest.integer("maxResponseBytes", path+".maxResponseBytes", 1, 5000000)
	return err
}
