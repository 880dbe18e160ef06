import { RUNTIME_MODULES } from "./generated";
import { SKILLS_INDEX_MODULE } from "./skill-modules";

/** The module through which the runtime reaches its optional parts (runtime/runtime.js). */
export const PARTS_MODULE = "parts.js";

/**
 * The sandbox runtime's optional parts. Each fresh isolate compiles every module it is given, so a
 * part is loaded only for code that contains one of its globals' names as a word (in code, a string
 * or a comment: a superset, never a miss for code that names them). Reading a left-out global
 * throws NotLoadedError (runtime.js), so only a name built at run time can meet it.
 */
const OPTIONAL_PARTS = [
  {
    module: "tools.js",
    installer: "installTools",
    globals: ["tools", "callTool", "searchTools", "getToolDefinition"],
  },
  { module: "session.js", installer: "installSession", globals: ["state", "workspace", "session"] },
  {
    module: "invoke-skills.js",
    installer: "installSkills",
    globals: ["skills"],
    /** the loaded skills' modules (skill-modules.ts) go in with this part, their only user */
    withSkills: true,
  },
  { module: "network.js", installer: "installNetwork", globals: ["fetch"] },
] as const satisfies readonly { module: string; installer: string; globals: string[]; withSkills?: true }[];

/** Cuts text only outside personal data (shared/privacy/cut.ts), loaded when PII tokenization is on. */
const PII_CUT_MODULE = "pii-cut.js";

/** The execution guard, loaded when some compiled module has loops or functions (compile/index.ts). */
const GUARD_MODULE = "guard.js";
const GUARD_EXPORTS = `export { configureGuard, guardState, thrownLine, tripTimeout } from "./${GUARD_MODULE}";`;

const PARTS = OPTIONAL_PARTS.map((p) => ({ ...p, named: new RegExp(`\\b(?:${p.globals.join("|")})\\b`) }));
/** The main module, its helpers bundled in (scripts/build-sandbox.mjs). */
const CORE_MODULES: Readonly<Record<string, string>> = {
  "runtime.js": RUNTIME_MODULES["runtime.js"] as string,
};

/**
 * The runtime's modules for an execution whose code (the agent's and its loaded skills') is
 * `sources`: the core, the parts the sources name, the guard when a compiled module imports it
 * (`guarded`), the PII-aware cut when `piiSafeCuts`, the loaded skills' `skillModules` with the
 * skills part, and the parts.js that lists them. Sources are bounded before they get here
 * (EXEC_MAX_CODE_CHARS, the skills' own limits); the patterns are plain alternations, linear in the text.
 */
export function runtimeModules(
  sources: readonly string[],
  options: { guarded: boolean; piiSafeCuts?: boolean },
  skillModules: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const modules: Record<string, string> = { ...CORE_MODULES };
  const exports: string[] = [];
  if (options.guarded) {
    modules[GUARD_MODULE] = RUNTIME_MODULES[GUARD_MODULE] as string;
    exports.push(GUARD_EXPORTS);
  }
  if (options.piiSafeCuts) {
    modules[PII_CUT_MODULE] = RUNTIME_MODULES[PII_CUT_MODULE] as string;
    exports.push(`export { cutOutsidePii } from "./${PII_CUT_MODULE}";`);
  }
  const notLoaded: string[] = [];
  for (const part of PARTS) {
    if (sources.some((source) => part.named.test(source))) {
      modules[part.module] = RUNTIME_MODULES[part.module] as string;
      exports.push(`export { ${part.installer} } from "./${part.module}";`);
      if ("withSkills" in part) {
        Object.assign(modules, skillModules);
        exports.push(`export { default as loadedSkills } from "./${SKILLS_INDEX_MODULE}";`);
      }
    } else {
      notLoaded.push(...part.globals);
    }
  }
  modules[PARTS_MODULE] = `${exports.join("\n")}\nexport const notLoaded = ${JSON.stringify(notLoaded)};\n`;
  return modules;
}

/** Whether these modules include a part that reaches the gateway; without one the isolate gets no bridge. */
export function usesBridge(modules: Readonly<Record<string, string>>): boolean {
  return OPTIONAL_PARTS.some((part) => part.module in modules);
}
