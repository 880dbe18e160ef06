import { describe, expect, it } from "vitest";
import { errorText, unwrapResult } from "../../workers/gateway/bridge/unwrap";

describe("unwrapResult", () => {
  it("prefers structuredContent", () => {
    expect(
      unwrapResult({ content: [{ type: "text", text: "ignored" }], structuredContent: { a: 1 } }),
    ).toEqual({ a: 1 });
  });

  it("parses JSON text, keeps other text, and turns binary into { type, mimeType, data }", () => {
    expect(unwrapResult({ content: [{ type: "text", text: ' {"x": [1, 2]} ' }] })).toEqual({ x: [1, 2] });
    expect(unwrapResult({ content: [{ type: "text", text: "Echo: hi" }] })).toBe("Echo: hi");
    expect(unwrapResult({ content: [{ type: "text", text: "{not json" }] })).toBe("{not json");
    expect(unwrapResult({ content: [{ type: "image", mimeType: "image/png", data: "iVBO" }] })).toEqual({
      type: "image",
      mimeType: "image/png",
      data: "iVBO",
    });
  });

  it("gives several items as an array and nothing as null", () => {
    expect(
      unwrapResult({
        content: [
          { type: "text", text: "1" },
          { type: "text", text: "two" },
        ],
      }),
    ).toEqual([1, "two"]);
    expect(unwrapResult({ content: [] })).toBeNull();
  });

  it("summarises error results as text", () => {
    expect(errorText({ content: [{ type: "text", text: "not found: tkt_1" }], isError: true })).toBe(
      "not found: tkt_1",
    );
    expect(errorText({ content: [], isError: true })).toMatch(/without text/);
  });
});
