import { createApp } from "./app";

export { SessionObject } from "../../durable-objects/session/session-object";
export { ToolBridge } from "./bridge/tool-bridge";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
