import type { SessionAnswer, SessionCall, SessionInfo, SessionQuota } from "../../shared/contract/session";
import { isoTime } from "../../shared/contract/time";
import { fail, ok } from "./answer";
import { badPath, deleteFile, fileCount, listFiles, readFile, writeFile } from "./files";
import type { SessionRecord } from "./record";
import { readMeta } from "./schema";
import { badKey, deleteState, getState, setState, stateKeys } from "./state";

/** Runs one checked call against a live session's tables (synchronously: nothing can interleave). */
export function dispatch(
  storage: DurableObjectStorage,
  record: SessionRecord,
  call: SessionCall,
  quota: SessionQuota,
): SessionAnswer {
  const sql = storage.sql;
  switch (call.op) {
    case "state.get":
      return badKey(call.key) ?? getState(sql, call.key);
    case "state.set":
      return badKey(call.key) ?? setState(storage, call.key, call.json, quota);
    case "state.delete":
      return badKey(call.key) ?? deleteState(storage, call.key);
    case "state.keys":
      return stateKeys(sql, call.prefix);
    case "workspace.write":
      return badPath(call.path) ?? writeFile(storage, call.path, call.data, quota);
    case "workspace.read":
      return badPath(call.path) ?? readFile(sql, call.path);
    case "workspace.list":
      return listFiles(sql, call.prefix);
    case "workspace.delete":
      return badPath(call.path) ?? deleteFile(storage, call.path);
    case "session.info":
      return ok(info(sql, record, quota));
    case "session.history":
      // The gateway answers it from the team's audit log (workers/gateway/sessions/execution.ts).
      return fail("TypeError", "session.history is not kept in the session object");
  }
}

function info(sql: SqlStorage, record: SessionRecord, quota: SessionQuota): SessionInfo {
  return {
    id: record.id,
    createdAt: isoTime(record.createdAt),
    lastSeenAt: isoTime(record.lastSeenAt),
    bytesUsed: readMeta(sql, "bytes_used"),
    quotaBytes: quota.quotaBytes,
    files: fileCount(sql),
  };
}
