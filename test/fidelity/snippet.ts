/** One agent-style snippet of the engine-fidelity corpus: code as an agent sends it to `execute`. */
export type Snippet = { name: string; code: string };
