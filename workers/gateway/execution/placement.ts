import { PYTHON_WARM_MEMORY_BYTES } from "../../../shared/contract/engine";
import type { ExecuteInput } from "../../../shared/contract/execute";
import type { LoadedSkill, Placement } from "../../../shared/contract/sandbox";
import type { SandboxConfig } from "../config";
import { takeSlot } from "./worker-pool";

/** One execution's placement, and what gives its warm worker's slot back when it has ended. */
export interface Placed {
  placement: Placement;
  release(): void;
}

const FRESH: Placed = { placement: { fresh: true }, release() {} };

/**
 * Where one execution of the team runs, decided once from the team's engine (`sandbox.engine`), the
 * language and the skills the code calls (`skills`, as loaded): on `quickjs`, the least busy warm
 * worker of the team's pool for the language (given back with `release`), each execution's memory
 * in it EXEC_MEMORY_MB for JavaScript and PYTHON_WARM_MEMORY_BYTES for Python; on `isolate`, a
 * fresh Dynamic Worker. Python code that calls TypeScript skills runs fresh on either engine: they
 * are modules, and a warm worker's code is fixed (Python skills are code its interpreter runs).
 */
export function placeExecution(
  team: string,
  sandbox: SandboxConfig,
  language: ExecuteInput["language"],
  skills: readonly LoadedSkill[],
): Placed {
  const python = language === "python";
  const callsModuleSkills = skills.some((skill) => skill.language !== "python");
  if (sandbox.engine === "isolate" || (python && callsModuleSkills)) return FRESH;
  const slot = takeSlot(team, sandbox.poolSize, python ? "python" : "javascript");
  const memoryBytes = python ? PYTHON_WARM_MEMORY_BYTES : sandbox.memoryBytes;
  return { placement: { warm: { id: slot.id, memoryBytes } }, release: slot.release };
}

/** The Dynamic Worker an execution ran in, as its audit entry names it: a warm worker's id, or `load`. */
export function placementWorker(placement: Placement): string {
  return "warm" in placement ? placement.warm.id : "load";
}
