import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../db/generated/client";
import type { Principal } from "../../auth/service";
import { createEvalTestDb, questions, seedAgent, seedSet } from "../testing";
import {
  assignItems,
  claimNextItem,
  createRun,
  listQueue,
  progressWithPeople,
  releaseItem,
  reserveItem,
  setVerdict,
  submitPastedAnswers,
} from "../index";
import { itemsPerHour, liveReservations, splitItems } from "./reservation-rules";
import { createTokenFor } from "../../auth/admin-tokens";
import { principalFromToken } from "../../auth/service";

const GOOD = "I recommend the scallion pancake breakfast dish; the price is 12 yuan.";
const person = (userId: string): Principal => ({
  kind: "user",
  userId,
  email: `${userId}@example.com`,
  role: "annotator",
});

describe("reservation rules (pure)", () => {
  it("split: even, seeded, reproducible", () => {
    const ids = Array.from({ length: 31 }, (_, i) => `i${i}`);
    const a = splitItems(ids, ["u1", "u2", "u3"], 42);
    const counts = ["u1", "u2", "u3"].map((u) => [...a.values()].filter((v) => v === u).length);
    expect(counts.sort()).toEqual([10, 10, 11]);
    expect([...splitItems(ids, ["u1", "u2", "u3"], 42)]).toEqual([...a]);
    expect([...splitItems(ids, ["u1", "u2", "u3"], 43)]).not.toEqual([...a]);
  });
  it("live reservations ignore expired and malformed entries; pace needs two reviews", () => {
    expect(liveReservations([{ by: "a", until: 10 }, { by: "b", until: 30 }, { x: 1 }, null], 20)).toEqual([
      { by: "b", until: 30 },
    ]);
    expect(liveReservations(null, 0)).toEqual([]);
    expect(itemsPerHour(1, new Date(0), new Date(0))).toBeNull();
    expect(itemsPerHour(6, new Date(0), new Date(30 * 60_000))).toBe(12);
  });
});

/** The claim on the embedded database (one connection: the interleaving is the event loop's, not PostgreSQL's). */
describe("reserved and assigned queues (embedded database)", () => {
  let db: PrismaClient;
  let close: () => Promise<void>;
  let setVersionId: string;
  let setId: string;

  async function newRun(reviewsPerItem: number) {
    await db.evalSet.update({ where: { id: setId }, data: { reviewsPerItem } });
    const run = await createRun(db, { setVersionId, mode: "pasted", tier: "invoke" }, null);
    await submitPastedAnswers(db, run.id, { answers: questions(30).map((q) => ({ key: q.key, answer: GOOD })) });
    const ids = (await listQueue(db, run.id, { limit: 500 })).items.map((i) => i.id);
    return { runId: run.id, ids };
  }

  beforeAll(async () => {
    ({ db, close } = await createEvalTestDb());
    const agentId = (await seedAgent(db)).id;
    ({
      setVersionId,
      set: { id: setId },
    } = await seedSet(db, {
      agentId,
      samples: questions(30),
      threshold: 100,
      auditRate: 0,
    }));
    for (const u of ["ann", "bob", "cy"])
      await db.user.create({ data: { id: u, email: `${u}@example.com`, name: u.toUpperCase(), passwordHash: "x" } });
  }, 120_000);
  afterAll(async () => close());

  it("two reviewers per item: an item goes to two people, never twice to one, in queue order", async () => {
    const { runId, ids } = await newRun(2);
    const a1 = await claimNextItem(db, runId, {}, "ann");
    const b1 = await claimNextItem(db, runId, {}, "bob");
    const c1 = await claimNextItem(db, runId, {}, "cy");
    const a2 = await claimNextItem(db, runId, {}, "ann");
    expect([a1.item?.id, b1.item?.id, c1.item?.id, a2.item?.id]).toEqual([ids[0], ids[0], ids[1], ids[1]]);
    expect(a1.item?.queue.reservedUntil).not.toBeNull();
    expect(a1.noneLeft).toBe(false);
    // as bob sees it now: the item he holds, and one other person holding it too
    const row = (await listQueue(db, runId, { limit: 1 }, "bob")).items[0]!;
    expect(row.queue).toMatchObject({ reservedByOthers: 1, assignee: null, assignedToOther: false });
    expect(row.queue.reservedUntil).not.toBeNull();
  });

  it("the claimed item is the queue row the list shows the same person (its relations read in the claim's statement)", async () => {
    const { runId, ids } = await newRun(2);
    await setVerdict(db, runId, ids[0]!, { verdict: "pass" }, person("ann"));
    await claimNextItem(db, runId, {}, "cy"); // a second person holding the next place of item 0
    const claimed = await claimNextItem(db, runId, {}, "bob");
    expect(claimed.item?.id).toBe(ids[1]);
    const listed = (await listQueue(db, runId, { limit: 2 }, "bob")).items.find((i) => i.id === ids[1]);
    expect(claimed.item).toEqual(listed);
    expect(claimed.item).toMatchObject({
      reviews: { needed: 2, given: 0, mine: null },
      suggestion: { verdict: "pass" },
    });
    // an item with a review given: its count comes back with it
    await releaseItem(db, runId, ids[0]!, "cy");
    const byDee = await claimNextItem(db, runId, {}, "dee");
    expect(byDee.item).toMatchObject({ id: ids[0], reviews: { needed: 2, given: 1, mine: null } });
    expect(byDee.item).toEqual((await listQueue(db, runId, { limit: 1 }, "dee")).items[0]);
  });

  it("75 concurrent claims by 3 people on 30 items x 2 reviews: all distinct per person, at most 2 per item, then none left", async () => {
    const { runId } = await newRun(2);
    const people = ["ann", "bob", "cy"];
    const answers = await Promise.all(
      people.flatMap((p) => Array.from({ length: 25 }, () => claimNextItem(db, runId, {}, p).then((r) => ({ p, r })))),
    );
    const got = answers.filter((a) => a.r.item);
    // 75 asks for 60 places: every answer is a reservation or "none left"
    expect(answers.every((a) => (a.r.item === null) === a.r.noneLeft)).toBe(true);
    const byItem = new Map<string, string[]>();
    for (const p of people) {
      const mine = got.filter((a) => a.p === p).map((a) => a.r.item!.id);
      expect(new Set(mine).size).toBe(mine.length);
    }
    for (const a of got) byItem.set(a.r.item!.id, [...(byItem.get(a.r.item!.id) ?? []), a.p]);
    expect(Math.max(...[...byItem.values()].map((v) => v.length))).toBe(2);
    // "none left" is true: a person told so could take no place left (every item is full or already theirs)
    for (const p of new Set(answers.filter((a) => a.r.noneLeft).map((a) => a.p)))
      for (const holders of byItem.values()) expect(holders.length === 2 || holders.includes(p)).toBe(true);
    expect(got.length).toBeGreaterThanOrEqual(50);
    const progress = await progressWithPeople(db, runId);
    expect(progress.people.map((p) => p.reserved)).toEqual(people.map((p) => got.filter((a) => a.p === p).length));
  });

  it("expired reservations free their place; a verdict releases; a reviewed item never comes back to its reviewer", async () => {
    const { runId, ids } = await newRun(1);
    const a = await claimNextItem(db, runId, {}, "ann");
    expect(a.item?.id).toBe(ids[0]);
    // bob cannot get ann's item while her reservation lives
    expect((await claimNextItem(db, runId, {}, "bob")).item?.id).toBe(ids[1]);
    const refused = await reserveItem(db, runId, ids[0]!, "bob");
    // bob is told who holds it, by name, so the page can say so before his verdict (a courtesy, not a lock)
    expect(refused).toMatchObject({ reserved: false, reservedByOthers: 1, heldBy: [{ label: "ANN" }] });
    expect(Date.parse(refused.heldBy[0]!.until)).toBeGreaterThan(Date.now());
    // it lapses: the place is free again
    await db.evalRunItem.update({
      where: { id: ids[0]! },
      data: { reservations: [{ by: "ann", until: Date.now() - 1 }], fullUntil: BigInt(Date.now() - 1) },
    });
    expect((await claimNextItem(db, runId, {}, "cy")).item?.id).toBe(ids[0]);
    // renewing keeps it; releasing frees it
    const renewed = await reserveItem(db, runId, ids[0]!, "cy");
    expect(renewed.reserved).toBe(true);
    expect((await releaseItem(db, runId, ids[0]!, "cy")).reserved).toBe(false);
    expect((await reserveItem(db, runId, ids[0]!, "cy")).reserved).toBe(true);
    // a verdict releases the reservation and the item is done
    await setVerdict(db, runId, ids[0]!, { verdict: "pass" }, person("cy"));
    const stored = await db.evalRunItem.findUniqueOrThrow({ where: { id: ids[0]! }, select: { reservations: true } });
    expect(stored.reservations).toEqual([]);
    const next = await claimNextItem(db, runId, {}, "cy");
    expect(next.item?.id).toBe(ids[2]);
    const progress = await progressWithPeople(db, runId);
    expect(progress.people.find((p) => p.userId === "cy")).toMatchObject({ name: "CY", reviewed: 1, reserved: 1 });
  });

  it("a row is known full while its places are taken (fullUntil: the earliest end), and no longer once one is freed", async () => {
    const { runId, ids } = await newRun(2);
    const full = async () =>
      (await db.evalRunItem.findUniqueOrThrow({ where: { id: ids[0]! }, select: { fullUntil: true } })).fullUntil;
    const a = await claimNextItem(db, runId, {}, "ann");
    expect(await full()).toBeNull(); // one of two places
    const b = await claimNextItem(db, runId, {}, "bob");
    expect([a.item?.id, b.item?.id]).toEqual([ids[0], ids[0]]);
    // both places taken: full until the earlier of the two reservations ends
    expect(Number(await full())).toBe(Date.parse(a.item!.queue.reservedUntil!));
    // a renewal keeps it full, until the earlier end (now bob's)
    await reserveItem(db, runId, ids[0]!, "ann");
    expect(Number(await full())).toBe(Date.parse(b.item!.queue.reservedUntil!));
    // cy's claim skips it without looking (the candidate read leaves it out) and takes the next
    expect((await claimNextItem(db, runId, {}, "cy")).item?.id).toBe(ids[1]);
    // bob leaves: a place is free, so the row is no longer known full, and cy's next claim takes it
    await releaseItem(db, runId, ids[0]!, "bob");
    expect(await full()).toBeNull();
    expect((await claimNextItem(db, runId, {}, "cy")).item?.id).toBe(ids[0]);
    // ann's verdict fills one place for good, cy holds the other: full again until cy's reservation ends
    await setVerdict(db, runId, ids[0]!, { verdict: "pass" }, person("ann"));
    await reserveItem(db, runId, ids[0]!, "cy");
    expect(Number(await full())).toBeGreaterThan(Date.now());
  });

  it("with two reviewers, a person's review counts as a place and they never get the item again", async () => {
    const { runId, ids } = await newRun(2);
    await reserveItem(db, runId, ids[0]!, "ann");
    await setVerdict(db, runId, ids[0]!, { verdict: "pass" }, person("ann"));
    // ann reviewed it: her next is another item; bob takes the one place left; cy finds it full
    expect((await claimNextItem(db, runId, {}, "ann")).item?.id).toBe(ids[1]);
    expect((await claimNextItem(db, runId, {}, "bob")).item?.id).toBe(ids[0]);
    expect((await claimNextItem(db, runId, {}, "cy")).item?.id).toBe(ids[1]);
  });

  it("assignment: an even seeded split, stored; a person's own items first, the others' reachable and marked", async () => {
    const { runId } = await newRun(1);
    const a = await assignItems(db, runId, { userIds: ["ann", "bob"], seed: 7 }, "admin");
    expect(a.assigned).toEqual([
      { userId: "ann", items: 15 },
      { userId: "bob", items: 15 },
    ]);
    const first = await db.evalRunItem.findMany({
      where: { runId },
      orderBy: { id: "asc" },
      select: { id: true, assigneeId: true },
    });
    await assignItems(db, runId, { userIds: ["ann", "bob"], seed: 7 }, "admin");
    const again = await db.evalRunItem.findMany({
      where: { runId },
      orderBy: { id: "asc" },
      select: { id: true, assigneeId: true },
    });
    expect(again).toEqual(first);
    const stored = await db.evalRun.findUniqueOrThrow({ where: { id: runId }, select: { assignment: true } });
    expect(stored.assignment).toMatchObject({ userIds: ["ann", "bob"], seed: 7 });
    // the documented InputProblem shape: path, message, code
    await expect(assignItems(db, runId, { userIds: ["ann", "nobody"] }, "admin")).rejects.toMatchObject({
      status: 400,
      code: "REQUEST_INVALID",
      details: [{ path: "/userIds/1", message: "no enabled user has this id", code: "custom" }],
    });

    const own = await claimNextItem(db, runId, {}, "ann");
    expect(own.fromAssigned).toBe(true);
    expect(own.item?.queue).toMatchObject({ assignee: "ann", assignedToOther: false });
    // cy has none of her own: the first item in queue order, someone else's and marked
    const other = await claimNextItem(db, runId, {}, "cy");
    expect(other.fromAssigned).toBe(false);
    expect(other.item?.queue.assignedToOther).toBe(true);
    // ann takes all her 15 (one already), then reaches bob's
    for (let i = 0; i < 14; i++) expect((await claimNextItem(db, runId, {}, "ann")).fromAssigned).toBe(true);
    const beyond = await claimNextItem(db, runId, {}, "ann");
    expect(beyond.fromAssigned).toBe(false);
    expect(beyond.item?.queue).toMatchObject({ assignee: "bob", assignedToOther: true });
    const people = (await progressWithPeople(db, runId)).people;
    expect(people.find((p) => p.userId === "ann")).toMatchObject({ assigned: 15, left: 15, reserved: 16 });
    expect(people.find((p) => p.userId === "bob")).toMatchObject({ assigned: 15, reserved: 0 });
  });

  it("an admin's token for another user: the owner's role by default, never above it; it acts as the owner", async () => {
    await db.user.update({ where: { id: "cy" }, data: { role: "annotator" } });
    const t = await createTokenFor(db, { userId: "cy", name: "cy's token" }, "ann");
    expect(t).toMatchObject({ ownerId: "cy", role: "annotator" });
    expect(await principalFromToken(db, t.token)).toMatchObject({ kind: "token", userId: "cy", role: "annotator" });
    await expect(createTokenFor(db, { userId: "cy", name: "too high", role: "admin" }, "ann")).rejects.toMatchObject({
      status: 400,
      code: "REQUEST_INVALID",
      details: [{ path: "/role", message: "at most annotator", code: "custom" }],
    });
    await expect(createTokenFor(db, { userId: "nobody", name: "x" }, "ann")).rejects.toMatchObject({ status: 404 });
  });
});
