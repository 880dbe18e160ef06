import { describe, expect, it } from "vitest";
import { convertDescription, toolName } from "../../workers/gateway/openapi/convert";
import { describeApi } from "../../workers/gateway/openapi/describe";

/** An OpenAPI 3.0 description with shared, nested and circular `$ref`s. */
const petstore30 = {
  openapi: "3.0.3",
  info: { title: "Pets", version: "1.2.0" },
  servers: [{ url: "https://{region}.pets.example/v1", variables: { region: { default: "eu" } } }],
  paths: {
    "/pets/{petId}": {
      parameters: [{ name: "petId", in: "path", required: true, schema: { type: "integer" } }],
      get: {
        operationId: "get-pet.byId",
        summary: "One pet",
        description: "x".repeat(2000),
        parameters: [
          { name: "fields", in: "query", schema: { type: "array", items: { type: "string" } } },
          { name: "X-Trace", in: "header", schema: { type: "string" } },
          { name: "Accept", in: "header", schema: { type: "string" } },
          { $ref: "#/components/parameters/Verbose" },
        ],
        responses: {
          "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
          "404": { description: "no such pet" },
        },
      },
      delete: { operationId: "deletePet", responses: { "204": { description: "gone" } } },
    },
    "/pets": {
      post: {
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/NewPet" } } },
        },
        responses: {
          "201": { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
        },
      },
    },
  },
  components: {
    parameters: {
      Verbose: { name: "verbose", in: "query", style: "form", explode: false, schema: { type: "boolean" } },
    },
    schemas: {
      NewPet: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string" }, tag: { type: "string", nullable: true } },
      },
      Pet: {
        allOf: [
          { $ref: "#/components/schemas/NewPet" },
          {
            type: "object",
            properties: { id: { type: "integer" }, parent: { $ref: "#/components/schemas/Pet" } },
            example: { id: 1 },
          },
        ],
      },
    },
  },
};

describe("OpenAPI → tools", () => {
  it("makes one typed tool per operation of a 3.0 description, $refs resolved in workerd", async () => {
    const api = await describeApi(JSON.stringify(petstore30));
    expect(api.info).toEqual({ title: "Pets", version: "1.2.0" });
    expect(api.server).toBe("https://eu.pets.example/v1");
    expect(api.tools.map((t) => t.name)).toEqual(["get_pet_byId", "deletePet", "post_pets"]);
    const [get, del, post] = api.tools;
    expect(get!.description!.length).toBeLessThanOrEqual(600);
    expect(get!.title).toBe("One pet");
    expect(get!.inputSchema).toEqual({
      type: "object",
      properties: {
        petId: { type: "integer" },
        fields: { type: "array", items: { type: "string" } },
        "X-Trace": { type: "string" },
        verbose: { type: "boolean" },
      },
      required: ["petId"],
      additionalProperties: false,
    });
    // the circular `parent` ends in a marked `{}`; the OpenAPI-only `example` is dropped
    const pet = get!.outputSchema as { allOf: { properties: Record<string, unknown> }[] };
    expect(pet.allOf[0]!.properties.tag).toEqual({ type: ["string", "null"] });
    expect(pet.allOf[1]).toEqual({
      type: "object",
      properties: { id: { type: "integer" }, parent: { description: "(recursive: Pet)" } },
    });
    expect(JSON.stringify(api.tools).length).toBeLessThan(10_000);
    expect(get!.annotations).toEqual({ readOnlyHint: true });
    expect(del!.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(post!.inputSchema).toMatchObject({
      required: ["body"],
      properties: { body: { required: ["name"] } },
    });
    expect(api.operations.get_pet_byId).toEqual({
      method: "GET",
      path: "/pets/{petId}",
      params: [
        { arg: "petId", name: "petId", in: "path", style: "csv" },
        { arg: "fields", name: "fields", in: "query", style: "multi" },
        { arg: "verbose", name: "verbose", in: "query", style: "csv" },
        { arg: "X-Trace", name: "X-Trace", in: "header", style: "csv" },
      ],
    });
    expect(api.operations.post_pets).toMatchObject({
      method: "POST",
      body: { contentType: "application/json", required: true },
    });
  });

  it("reads Swagger 2.0: host and basePath, body and formData parameters, collectionFormat", async () => {
    const api = await describeApi({
      swagger: "2.0",
      info: { title: "Old", version: "1" },
      host: "api.example.com",
      basePath: "/v2",
      schemes: ["http", "https"],
      paths: {
        "/items": {
          get: {
            operationId: "listItems",
            parameters: [
              {
                name: "tags",
                in: "query",
                type: "array",
                items: { type: "string" },
                collectionFormat: "pipes",
              },
              { name: "limit", in: "query", type: "integer", maximum: 100, description: "at most" },
            ],
            responses: { "200": { schema: { type: "array", items: { $ref: "#/definitions/Item" } } } },
          },
          post: {
            operationId: "addItem",
            parameters: [
              { name: "item", in: "body", required: true, schema: { $ref: "#/definitions/Item" } },
            ],
            responses: { "201": { description: "ok" } },
          },
          put: {
            operationId: "uploadItem",
            parameters: [{ name: "file", in: "formData", type: "file", required: true }],
            responses: { "200": { description: "ok" } },
          },
        },
      },
      definitions: { Item: { type: "object", properties: { name: { type: "string" } } } },
    });
    expect(api.server).toBe("https://api.example.com/v2");
    const [list, upload, add] = api.tools;
    expect(list!.inputSchema.properties).toEqual({
      tags: { type: "array", items: { type: "string" } },
      limit: { type: "integer", maximum: 100, description: "at most" },
    });
    expect(list!.outputSchema).toEqual({
      type: "array",
      items: { type: "object", properties: { name: { type: "string" } } },
    });
    expect(api.operations.listItems!.params[0]).toEqual({
      arg: "tags",
      name: "tags",
      in: "query",
      style: "pipes",
    });
    expect(add!.inputSchema).toMatchObject({ properties: { body: { type: "object" } }, required: ["body"] });
    expect(api.operations.addItem!.body).toEqual({ contentType: "application/json", required: true });
    expect(upload!.annotations).toEqual({ readOnlyHint: false, idempotentHint: true });
    expect(api.operations.uploadItem!.body).toEqual({
      contentType: "application/x-www-form-urlencoded",
      required: true,
    });
  });

  it("reads 3.1 (type arrays), names clashing parameters by location, numbers clashing names", () => {
    const api = convertDescription({
      openapi: "3.1.0",
      info: { title: "T", version: "2" },
      paths: {
        "/a/{id}": {
          get: {
            operationId: "same",
            parameters: [
              { name: "id", in: "path", required: true, schema: { type: "string" } },
              { name: "id", in: "query", schema: { type: ["string", "null"] } },
              { name: "body", in: "query", schema: { type: "string" } },
            ],
            responses: { "2XX": { content: { "application/problem+json": { schema: { type: "object" } } } } },
          },
        },
        "/b": { get: { operationId: "same", responses: {} } },
      },
    });
    expect(api.tools.map((t) => t.name)).toEqual(["same", "same_2"]);
    expect(Object.keys(api.tools[0]!.inputSchema.properties as object)).toEqual([
      "id",
      "id_query",
      "body_query",
    ]);
    expect(api.tools[0]!.outputSchema).toEqual({ type: "object" });
    expect(api.server).toBeUndefined();
  });

  it("describes an operation that has no summary or description by its path's, then method and path", () => {
    const api = convertDescription({
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: {
        "/usage/daily": {
          description: "Usage records summarized by day",
          get: { operationId: "ListUsageDaily", responses: {} },
          post: { operationId: "CreateUsageDaily", summary: "Add a usage record", responses: {} },
        },
        "/ping": { get: { operationId: "ping", responses: {} } },
      },
    });
    expect(api.tools.map((tool) => tool.description)).toEqual([
      "Usage records summarized by day\n\nGET /usage/daily",
      "Add a usage record",
      "GET /ping",
    ]);
  });

  it("reads a YAML description", async () => {
    const api = await describeApi(
      "openapi: 3.0.0\ninfo: { title: Y, version: '1' }\npaths:\n  /ping:\n    get:\n      operationId: ping\n      responses: {}\n",
    );
    expect(api.tools.map((t) => t.name)).toEqual(["ping"]);
  });

  it("makes identifiers of operationIds and of method + path", () => {
    expect(toolName("get /users/{id}/repos")).toBe("get_users_id_repos");
    expect(toolName("2fa-enable")).toBe("_2fa_enable");
    expect(toolName("repos/get-content")).toBe("repos_get_content");
    expect(toolName("***")).toBe("operation");
  });

  it("says what is wrong with something that is not a description", async () => {
    await expect(describeApi("{ nope")).rejects.toThrow(/OpenAPI description: not valid JSON or YAML/);
    await expect(describeApi("a: [b")).rejects.toThrow(/OpenAPI description: not valid JSON or YAML/);
    await expect(describeApi({ openapi: "4.0", paths: {} })).rejects.toThrow(
      /needs "openapi": "3.x" or "swagger": "2.0"/,
    );
    expect(() => convertDescription({ openapi: "3.0.0" })).toThrow(/has no paths object/);
  });
});
