import { describe, expect, it } from "vitest";
import { generateDataset } from "../../workers/demo-upstream/data/generate";
import type { Comment, Ticket } from "../../workers/demo-upstream/schemas";
import { demo, type TicketPage } from "../helpers/demo-mcp";

describe("demo upstream: writes (in memory only)", () => {
  it("create_ticket opens a ticket that reads and lists back", async () => {
    const d = demo();
    const { ticket } = await d.ok<{ ticket: Ticket }>("create_ticket", {
      customerId: "cus_00007",
      subject: "Export button does nothing",
      body: "Clicking Export in Reports has no effect.",
      priority: "high",
      tags: ["Bug", "bug", "reports"],
      assignee: d.store.agents[0]!.name.toLowerCase(),
    });
    expect(ticket).toMatchObject({
      id: "tkt_010001",
      status: "open",
      priority: "high",
      tags: ["bug", "reports"],
      assignee: d.store.agents[0]!.name,
      commentCount: 0,
    });
    expect(ticket.createdAt > d.store.tickets[9999]!.createdAt).toBe(true);
    const list = await d.ok<TicketPage>("list_tickets", { limit: 1 });
    expect(list.tickets[0]!.id).toBe("tkt_010001");
    expect(list.total).toBe(10001);
    const read = await d.ok<{ ticket: Ticket; comments: Comment[] }>("get_ticket", { id: "tkt_010001" });
    expect(read.ticket).toEqual(ticket);
    expect(read.comments).toEqual([]);
    expect(await d.fails("create_ticket", { customerId: "cus_77777", subject: "Hello", body: "x" })).toMatch(
      /cus_77777/,
    );
    expect(await d.fails("create_ticket", { customerId: "cus_00007", subject: "", body: "x" })).toMatch(
      /subject/,
    );
  });

  it("update_ticket changes fields, reports what changed, and keeps the conversation", async () => {
    const d = demo();
    const before = d.store.tickets.find((t) => t.status === "open" && t.commentCount === 1 && t.assignee)!;
    const conversation = structuredClone(d.store.commentsOf(before.id));
    const agent = d.store.agents.find((a) => a.name !== before.assignee)!.name;
    const { ticket, changed } = await d.ok<{ ticket: Ticket; changed: string[] }>("update_ticket", {
      id: before.id,
      status: "resolved",
      assignee: agent,
      tags: ["billing"],
    });
    expect(ticket).toMatchObject({ id: before.id, status: "resolved", assignee: agent, tags: ["billing"] });
    expect(changed.sort()).toEqual(["assignee", "status", "tags"]);
    expect(ticket.updatedAt >= before.createdAt).toBe(true);
    expect((await d.ok<{ comments: Comment[] }>("get_ticket", { id: before.id })).comments).toEqual(
      conversation,
    );

    const again = await d.ok<{ changed: string[] }>("update_ticket", { id: before.id, status: "resolved" });
    expect(again.changed).toEqual([]);
    const unassign = await d.ok<{ ticket: Ticket }>("update_ticket", { id: before.id, assignee: null });
    expect(unassign.ticket.assignee).toBeNull();

    expect(await d.fails("update_ticket", { id: before.id })).toMatch(/Nothing to update/);
    expect(await d.fails("update_ticket", { id: before.id, assignee: "Ghost" })).toMatch(
      /No agent named "Ghost"/,
    );
    expect(await d.fails("update_ticket", { id: "tkt_123", status: "open" })).toMatch(/tkt_123/);
    expect(await d.fails("update_ticket", { id: before.id, priority: "critical" })).toMatch(/priority/);
  });

  it("add_ticket_comment appends a reply; closed tickets must be reopened first", async () => {
    const d = demo();
    const ticket = d.store.tickets.find((t) => t.status === "pending" && t.assignee)!;
    const count = ticket.commentCount;
    const { comment, ticket: after } = await d.ok<{ comment: Comment; ticket: Ticket }>(
      "add_ticket_comment",
      {
        ticketId: ticket.id,
        body: "We shipped a fix; could you try again?",
      },
    );
    expect(comment).toMatchObject({
      ticketId: ticket.id,
      author: ticket.assignee,
      authorType: "agent",
      internal: false,
    });
    expect(comment.id).toBe(`cmt_${String(generateDataset().commentTotal + 1).padStart(7, "0")}`);
    expect(after.commentCount).toBe(count + 1);
    expect(after.updatedAt).toBe(comment.createdAt);
    const read = await d.ok<{ comments: Comment[] }>("get_ticket", { id: ticket.id });
    expect(read.comments.at(-1)).toEqual(comment);
    expect(read.comments).toHaveLength(count + 1);

    const closed = d.store.tickets.find((t) => t.status === "closed")!;
    expect(await d.fails("add_ticket_comment", { ticketId: closed.id, body: "hi" })).toMatch(
      /closed; reopen/,
    );
    const unassigned = d.store.tickets.find((t) => t.assignee === null)!;
    expect(await d.fails("add_ticket_comment", { ticketId: unassigned.id, body: "hi" })).toMatch(/author/);
    const note = await d.ok<{ comment: Comment }>("add_ticket_comment", {
      ticketId: unassigned.id,
      body: "Looking into it",
      author: d.store.agents[1]!.name,
      internal: true,
    });
    expect(note.comment).toMatchObject({ author: d.store.agents[1]!.name, internal: true });
    expect(await d.fails("add_ticket_comment", { ticketId: ticket.id, body: "   " })).toMatch(/body/);
  });
});
