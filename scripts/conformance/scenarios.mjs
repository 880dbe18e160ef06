// Which server scenarios of @modelcontextprotocol/conformance apply to the gateway in each protocol era
// (scripts/conformance/suite.mjs: 2025-11-25, 2026-07-28, and the extension scenarios), and why each
// of the others does not. Every "does not apply" carries a check against the live server (its
// declared capabilities, its tools, resources and templates): if the gateway gains the feature, the
// check fails and the scenario must move to APPLIES. A scenario of an era in neither list fails the
// run. Within a scenario that applies, CHECKS_DO_NOT_APPLY names the checks that need one of the
// suite's fixtures (a diagnostic tool of its reference server) with the same kind of re-check; any
// other failed check fails the scenario, and so does a scenario with no passed check of its own
// (`wire-schema-valid`, the suite's schema check of every message, is not one).

const SKILLS = "io.modelcontextprotocol/skills";

/** Run against the gateway, per era; each must pass. */
export const APPLIES = {
  "2025-11-25": [
    "server-initialize",
    "server-session-lifecycle",
    "logging-set-level",
    "ping",
    "tools-list",
    "resources-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
  ],
  "2026-07-28": [
    "server-stateless",
    "tools-list",
    "resources-list",
    "server-sse-multiple-streams",
    "sep-2164-resource-not-found",
    "dns-rebinding-protection",
    "caching",
    "http-header-validation",
    "input-required-result-unsupported-methods",
  ],
  extensions: ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "tasks-capability-negotiation"],
};

/**
 * @typedef {{ capabilities: Record<string, unknown>, tools: string[], headerTools: string[], resources: string[], templates: string[] }} Probe
 * @typedef {{ reason: string, stillTrue: (probe: Probe) => boolean }} Skip
 * @type {Record<string, Skip>}
 */
export const DOES_NOT_APPLY = {
  "completion-complete": capabilityAbsent(
    "completions",
    "it completes an argument of the prompt test_prompt_with_arguments, and the gateway has no prompts",
  ),
  "prompts-list": capabilityAbsent("prompts", "the gateway serves no prompts"),
  "prompts-get-simple": capabilityAbsent("prompts", "the gateway serves no prompts (test_simple_prompt)"),
  "prompts-get-with-args": capabilityAbsent(
    "prompts",
    "the gateway serves no prompts (test_prompt_with_arguments)",
  ),
  "prompts-get-embedded-resource": capabilityAbsent(
    "prompts",
    "the gateway serves no prompts (test_prompt_with_embedded_resource)",
  ),
  "prompts-get-with-image": capabilityAbsent(
    "prompts",
    "the gateway serves no prompts (test_prompt_with_image)",
  ),
  "tools-call-simple-text": testTool("test_simple_text"),
  "tools-call-image": testTool("test_image_content"),
  "tools-call-audio": testTool("test_audio_content"),
  "tools-call-embedded-resource": testTool("test_embedded_resource"),
  "tools-call-mixed-content": testTool("test_multiple_content_types"),
  "tools-call-with-logging": testTool("test_tool_with_logging"),
  "tools-call-error": testTool("test_error_handling"),
  "tools-call-with-progress": testTool("test_tool_with_progress"),
  "tools-call-sampling": testTool("test_sampling"),
  "tools-call-elicitation": testTool("test_elicitation"),
  "elicitation-sep1034-defaults": testTool("test_elicitation_sep1034_defaults"),
  "elicitation-sep1330-enums": testTool("test_elicitation_sep1330_enums"),
  "json-schema-2020-12": testTool("json_schema_2020_12_tool", " (a pending scenario of the suite)"),
  "server-sse-polling": testTool(
    "test_reconnection",
    ", which closes its SSE stream mid-call (a pending scenario of the suite; without it, no check runs)",
  ),
  "resources-read-text": testResource("test://static-text"),
  "resources-read-binary": testResource("test://static-binary"),
  "resources-templates-read": {
    reason:
      "reads test://template/123/data from the suite's fixture template test://template/{id}/data; the gateway's templates are skill://{name} and workspace://{path}",
    stillTrue: (probe) => !probe.templates.includes("test://template/{id}/data"),
  },
  "resources-subscribe": subscribeAbsent(),
  "resources-unsubscribe": subscribeAbsent(),
  "http-custom-header-server-validation": {
    reason:
      "needs a tool with an `x-mcp-header` parameter (SEP-2243 custom headers; a pending scenario of the suite): no gateway tool has one",
    stillTrue: (probe) => probe.headerTools.length === 0,
  },
  "input-required-result-basic-elicitation": testTool("test_input_required_result_elicitation"),
  "input-required-result-basic-sampling": testTool("test_input_required_result_sampling"),
  "input-required-result-basic-list-roots": testTool("test_input_required_result_list_roots"),
  "input-required-result-request-state": testTool("test_input_required_result_request_state"),
  "input-required-result-multiple-input-requests": testTool("test_input_required_result_multiple_inputs"),
  "input-required-result-multi-round": testTool("test_input_required_result_multi_round"),
  "input-required-result-missing-input-response": testTool("test_input_required_result_elicitation"),
  "input-required-result-result-type": testTool("test_input_required_result_elicitation"),
  "input-required-result-tampered-state": testTool("test_input_required_result_tampered_state"),
  "input-required-result-capability-check": testTool("test_input_required_result_capabilities"),
  "input-required-result-ignore-extra-params": testTool("test_input_required_result_elicitation"),
  "input-required-result-validate-input": testTool(
    "test_input_required_result_elicitation",
    " (its checks pass here only because the tool is unknown)",
  ),
  "input-required-result-non-tool-request": capabilityAbsent(
    "prompts",
    "it gets the fixture prompt test_input_required_result_prompt, and the gateway has no prompts",
  ),
  "sep-2640-skills-directory": {
    reason:
      "the gateway's skills extension does not declare `directoryRead` (resources/directory/read, optional): each skill is one file, SKILL.md, so every check is skipped",
    stillTrue: (probe) => {
      const extensions = probe.capabilities.extensions;
      const skills =
        typeof extensions === "object" && extensions !== null ? Reflect.get(extensions, SKILLS) : undefined;
      return !(
        typeof skills === "object" &&
        skills !== null &&
        Reflect.get(skills, "directoryRead") === true
      );
    },
  },
  "tasks-lifecycle": taskTools("greet, slow_compute, failing_job, protocol_error_job"),
  "tasks-wire-fields": taskTools("slow_compute"),
  "tasks-request-state-removal": taskTools("slow_compute"),
  "tasks-mrtr-input": taskTools("confirm_delete, multi_input"),
  "tasks-request-headers": taskTools("greet, slow_compute"),
  "tasks-dispatch-and-envelope": taskTools("greet, slow_compute, failing_job"),
  "tasks-required-task-error": taskTools("failing_job"),
  "tasks-mrtr-composition": taskTools("test_tool_with_task"),
  "tasks-status-notifications": {
    reason:
      "the suite skips its only check (its harness still watches the tools/call SSE response, not the subscriptions/listen stream SEP-2663 uses)",
    stillTrue: () => true,
  },
};

/**
 * Checks of scenarios that apply which need a fixture of the suite: their failure or warning does
 * not count, and the report says why.
 * @type {Record<string, Record<string, Skip>>}
 */
export const CHECKS_DO_NOT_APPLY = {
  "server-stateless": {
    "sep-2575-server-rejects-undeclared-capability": testTool("test_missing_capability"),
    "sep-2575-missing-capability-http-400": testTool("test_missing_capability"),
    "sep-2575-http-server-no-independent-requests-on-stream": testTool("test_streaming_elicitation"),
    "sep-2575-server-no-log-without-loglevel": testTool("test_logging_tool"),
    "sep-2575-server-sends-tools-list-changed-on-subscription": testTool(
      "test_trigger_tool_change",
      ", the hook that changes the tool list (a warning: it takes the gateway's unknown-tool error for a change)",
    ),
  },
  caching: {
    "sep-2549-prompts-list-caching-hints": capabilityAbsent(
      "prompts",
      "it calls prompts/list regardless, and the gateway serves no prompts",
    ),
  },
  "tasks-capability-negotiation": {
    "sep-2663-server-rejects-undeclared-client": taskTools("slow_compute"),
    "tasks-per-request-meta-opt-in": taskTools("slow_compute"),
  },
};

function capabilityAbsent(capability, why) {
  return {
    reason: `no \`${capability}\` capability: ${why}`,
    stillTrue: (probe) => probe.capabilities[capability] === undefined,
  };
}

function testTool(name, more = "") {
  return {
    reason: `calls the suite's fixture tool \`${name}\`${more}; the gateway serves only its own tools`,
    stillTrue: (probe) => !probe.tools.includes(name),
  };
}

function taskTools(names) {
  const tools = names.split(", ");
  return {
    reason: `calls the suite's fixture tools (${names}) of the tasks extension; the gateway's task is an execute that outlasts its answer`,
    stillTrue: (probe) => !tools.some((t) => probe.tools.includes(t)),
  };
}

function testResource(uri) {
  return {
    reason: `reads the suite's fixture resource ${uri}; the gateway's resources are skill:// and workspace:// only`,
    stillTrue: (probe) => !probe.resources.includes(uri),
  };
}

function subscribeAbsent() {
  return {
    reason:
      "the gateway does not declare `resources.subscribe` (workspace files change only through the session's own execute calls)",
    stillTrue: (probe) => {
      const resources = probe.capabilities.resources;
      return !(typeof resources === "object" && resources !== null && Reflect.get(resources, "subscribe"));
    },
  };
}
