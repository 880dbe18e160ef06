/**
 * The connect link a user is given for a pending flow (`openConnect`): the gateway's own page on
 * the origin the client reached it by, `GET /connect/{team}/{flow}` (routes/connect.ts).
 */
export function connectLink(origin: string, team: string, flowId: string): string {
  return `${origin}/connect/${encodeURIComponent(team)}/${encodeURIComponent(flowId)}`;
}
