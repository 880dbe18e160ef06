// Which server scenarios of @modelcontextprotocol/conformance apply to the gateway, and why each of
// the others does not. Every "does not apply" carries a check against the live server (its declared
// capabilities, its tools, resources and templates): if the gateway gains the feature, the check
// fails and the scenario must move to APPLIES. A scenario in neither list fails the run.

/** Run against the gateway; each must pass. */
export const APPLIES = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
  "logging-set-level",
];

/**
 * @typedef {{ capabilities: Record<string, unknown>, tools: string[], resources: string[], templates: string[] }} Probe
 * @type {Record<string, { reason: string, stillTrue: (probe: Probe) => boolean }>}
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
    ", which closes its SSE stream mid-call (a pending scenario of the suite)",
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
