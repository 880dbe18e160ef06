// `fetch` for agent code: to the gateway's egress policy when the team allows hosts, else a clear
// refusal.
import { clip, ErrorCtor } from "./intrinsics.js";
import { withCallSite } from "./pending.js";

const RequestCtor = Request;
const nativeFetch = globalThis.fetch;
const captureStackTrace = ErrorCtor.captureStackTrace;

/** @typedef {import("../../../shared/contract/sandbox").SandboxBridgeApi} Bridge */

/**
 * Without egress the isolate is loaded with `globalOutbound: null`, which is what blocks the
 * network; this only makes the refusal say what happened. With egress, fetch() goes to the
 * gateway, which applies the team's host list hop by hop.
 * @param {Bridge | undefined} egress
 */
export function installNetwork(egress) {
  globalThis.fetch = async function fetch(input, init) {
    // Where the code called fetch: a failure after the await has no frame of the code's on the quickjs
    // engine (no async stack traces), so the call site's frames go under it, as for tool calls.
    const site = {};
    captureStackTrace(site, fetch);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    try {
      if (egress) return await egress.fetch(new RequestCtor(input, init));
      return await nativeFetch(input, init);
    } catch (err) {
      const reason = err instanceof ErrorCtor ? err.message : String(err);
      const blocked = /not permitted to access the internet/i.test(clip(reason, 500));
      throw withCallSite(
        new TypeError(
          blocked
            ? `fetch(${clip(url, 500)}) failed: this sandbox has no network access (${clip(reason, 500)})`
            : `fetch(${clip(url, 500)}) failed: ${clip(reason, 1_000)}`,
        ),
        site,
      );
    }
  };
}
