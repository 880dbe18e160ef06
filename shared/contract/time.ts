import { z } from "zod";

/**
 * Every time that code, a client or a person reads (results, files, resources, REST answers) is
 * ISO 8601 text in UTC with milliseconds: `2026-05-01T12:00:00.000Z`. Stored times stay ms since
 * epoch and are converted on the way out, by `isoTime`.
 */
export const IsoTime = z.iso.datetime();
export type IsoTime = z.infer<typeof IsoTime>;

export const isoTime = (ms: number): IsoTime => new Date(ms).toISOString();
