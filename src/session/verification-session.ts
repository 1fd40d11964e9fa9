// One Durable Object per verification session: the only writer of its status. It serializes
// completion against expiry, owns the expiry alarm, mirrors each change to the D1 session log and
// enqueues the callback. Changes leave through a stored outbox, so a failed D1 or queue write is
// retried by the alarm instead of being lost.
import { DurableObject } from "cloudflare:workers";
import type { ServiceContext } from "../context/service-context";
import { deleteSessionLog, openStatements, resolutionStatements, sessionLogExists } from "./session-mirror";
import { log } from "../lib/log";
import { sha256Hex, timingSafeEqual } from "../lib/crypto";
import { newId } from "../lib/ids";
import { nowIso } from "../lib/time";
import { callbackMessage, safetyNetMessage, SAFETY_NET_DELAY_SECONDS, type CallbackMessage } from "./callback-message";
import { polledView, previewView, requestView, type PolledSession, type SessionPreview, type SessionRequest } from "./session-view";
import { transition, type AccountBinding, type SessionEvent, type SessionState, type TestOutcome } from "./state-machine";
import { signReceipt } from "./receipts";
import { policyRefusal, type PolicyRefusal } from "./answer-policy";
import {
  createDigitalIdRequest,
  verifyDigitalIdResponse,
  type DigitalCredentialRequest,
  type DigitalIdOutcome,
  type PendingDigitalIdRequest,
} from "../digital-id";
import type { FieldError } from "../errors";
import {
  appOriginOf,
  digitalIdOffered,
  DIGITAL_ID_FAILURES_KEY,
  DIGITAL_ID_FAILURES_MAX,
  DIGITAL_ID_REQUEST_KEY,
  NO_OPEN_REQUEST,
  refusedAnswer,
  trustAnchorsOf,
} from "./digital-id-answer";
import { insertSpentAgeToken, type SpentAgeToken } from "../db/spent-age-tokens";
import { isolateStatusLists } from "./status-lists";
import { deliverAtOnce } from "../callbacks/first-attempt";

export type SessionFailure =
  | "NOT_FOUND"
  | "SESSION_WITHDRAWN"
  | "KYC_REQUIRED"
  | "SESSION_NOT_PENDING"
  | "PASSKEY_REQUIRED"
  | "OVER_SESSION_OPENS_PER_ACCOUNT"
  | "TOO_MANY_PENDING"
  | "DIGITAL_ID_INVALID"
  | "DIGITAL_ID_INSUFFICIENT"
  | "DIGITAL_ID_BODY_INVALID"
  | "DIGITAL_ID_FAILURES_EXCEEDED"
  | "AGE_TOKEN_SPENT"
  | "AGE_TOKEN_INVALID"
  | "AGE_TOKEN_INSUFFICIENT"
  | PolicyRefusal;

/**
 * What opening a session is measured against (docs/limits.md): this minute's counter of the account's opens
 * (its key and window end, computed by the caller: src/domain/verification/session-opening.ts), and the
 * limits. Counted and checked in the same D1 batch as the log row's insert.
 */
export type OpenAdmission = { opens: { key: string; expiresAt: string }; opensPerMinute: number; pendingMax: number };
/** A failure's own words, where it has them: the check a digital ID failed, the fields of a bad body, when to retry. */
export type FailureDetail = { message?: string; errors?: FieldError[]; retryAfter?: number };
export type SessionResult<T> = { ok: true; value: T } | { ok: false; error: SessionFailure; detail?: FailureDetail };

type Outbox = { message: CallbackMessage };

const OUTBOX_RETRY_MS = 10_000;
/** How long a resolved session can still be polled; then its object forgets it (the D1 log stays). */
export const RESOLVED_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const fail = (error: SessionFailure, detail?: FailureDetail) => ({ ok: false, error, detail }) as const;

/**
 * What a session whose merchant deleted its account leaves (closeForDeletedAccount): the hash of its
 * link's nonce, so that the link's holder alone is told the link is no longer valid, and when to forget
 * that too. Nothing of the merchant, its key or its callback.
 */
type Withdrawn = { nonceHash: string; forgetAt: number };

/**
 * The session's logic. The runtime constructs the entry's subclass (src/index.ts), which hands in the
 * isolate's service context: this layer cannot build one (the builder chooses adapters above it).
 */
export class VerificationSessionObject extends DurableObject<Env> {
  /**
   * The isolate's root service context, no shard chosen (`this.ctx` is the Durable Object's own state);
   * `this.onShard` gives the merchant's, named `ctx` where it is used (docs/design.md, "One service context").
   */
  private readonly root: ServiceContext;
  /**
   * The failed digital-ID answers, mirrored from storage once read, and the answers being verified now.
   * Each is read and changed only between two awaits, never across one, so concurrent answers count on
   * the same numbers: a try is reserved before the verifier runs, and a failure is added, not re-read
   * and overwritten (docs/limits.md, "Per session: digital-ID answers").
   */
  private digitalIdFailuresSeen: number | undefined;
  private digitalIdAnswersInFlight = 0;

  constructor(state: DurableObjectState, env: Env, root: ServiceContext) {
    super(state, env);
    this.root = root;
  }

  /** The context on the merchant's shard (recorded when the session opened; a state from before sharding: shard 0). */
  private onShard(shard: number | undefined): ServiceContext {
    return this.root.onShard(shard ?? 0);
  }

  private load(): Promise<SessionState | undefined> {
    return this.ctx.storage.get<SessionState>("state");
  }

  /**
   * Creates the session: its D1 log row first, so nothing exists here that the log lacks. The same batch
   * counts the account's opens this minute and its open sessions (the new one included); past either
   * limit the row is taken back and nothing is stored here: no state, no alarm, no callback.
   */
  async open(state: SessionState, admission: OpenAdmission): Promise<SessionResult<null>> {
    let refused: SessionFailure | null = null;
    await this.ctx.blockConcurrencyWhile(async () => {
      if (await this.load()) throw new Error("session already open");
      const { db } = this.onShard(state.shard);
      const [counted, , pending] = await db.$client.batch<{ count?: number; pending?: number }>(
        openStatements(db, admission.opens, {
          id: state.id,
          accountId: state.accountId,
          keyId: state.keyId,
          ageRequired: state.ageRequired,
          createdAt: state.createdAt,
          expiresAt: state.expiresAt,
          livemode: state.livemode ?? true,
          reference: state.reference ?? null,
          metadata: state.metadata ?? null,
          acceptedAssurance: state.acceptedAssurance ?? null,
          doubleBlind: state.doubleBlind ?? false,
        }),
      );
      const opened = counted?.results[0];
      const open = pending?.results[0];
      if ((opened?.count ?? 0) > admission.opensPerMinute) refused = "OVER_SESSION_OPENS_PER_ACCOUNT";
      else if ((open?.pending ?? 0) > admission.pendingMax) refused = "TOO_MANY_PENDING";
      if (refused) {
        await deleteSessionLog(db, state.id);
        return;
      }
      await this.ctx.storage.put("state", state);
      await this.scheduleAlarm(state);
    });
    return refused ? fail(refused) : { ok: true, value: null };
  }

  /** The merchant's poll. Past expiry it expires the session first, so it never shows PENDING late. */
  async poll(accountId: string): Promise<SessionResult<PolledSession>> {
    let state = await this.load();
    if (!state || state.accountId !== accountId) return fail("NOT_FOUND");
    if (state.status === "PENDING" && Date.now() >= Date.parse(state.expiresAt)) {
      state = await this.apply({ type: "expire", at: nowIso() });
    }
    return { ok: true, value: polledView(state) };
  }

  async request(nonce: string): Promise<SessionResult<SessionRequest>> {
    const state = await this.load();
    if (!state || !(await this.nonceMatches(state, nonce))) return fail(await this.unknownOrWithdrawn(nonce));
    return { ok: true, value: requestView(state) };
  }

  /** The first screen, before any sign-in (docs/api-contract.md §Preview). Past expiry it expires first, as poll does. */
  async preview(nonce: string): Promise<SessionResult<SessionPreview>> {
    let state = await this.load();
    if (!state || !(await this.nonceMatches(state, nonce))) return fail(await this.unknownOrWithdrawn(nonce));
    if (state.status === "PENDING" && Date.now() >= Date.parse(state.expiresAt)) {
      state = await this.apply({ type: "expire", at: nowIso() });
    }
    return { ok: true, value: previewView(state) };
  }

  /** "Not now" without an account: DENIED, and nothing about who declined is known or recorded. */
  async decline(nonce: string): Promise<SessionResult<PolledSession>> {
    const state = await this.load();
    if (!state || !(await this.nonceMatches(state, nonce))) return fail(await this.unknownOrWithdrawn(nonce));
    let refused = false;
    const after = await this.apply(
      { type: "decline", at: nowIso(), receiptId: newId("rcpt") },
      (result) => (refused = result.outcome === "not_pending"),
    );
    return refused ? fail("SESSION_NOT_PENDING") : { ok: true, value: polledView(after) };
  }

  /**
   * The end user's decision. The date of birth is used for the decision and then forgotten: nothing
   * here records who completed the session.
   */
  async complete(input: {
    nonce: string;
    consent: boolean;
    dateOfBirth: string | null;
    holderBinding: AccountBinding;
    accountHasPasskey: boolean;
  }): Promise<SessionResult<PolledSession>> {
    const state = await this.load();
    if (!state || !(await this.nonceMatches(state, input.nonce))) return fail(await this.unknownOrWithdrawn(input.nonce));
    // The merchant's policy first: whether an account may answer at all does not depend on which one asks.
    const refusal = policyRefusal(state, "account");
    if (refusal) return fail(refusal);
    if (input.dateOfBirth === null) return fail("KYC_REQUIRED");
    // A consent from an account with a passkey, or for a merchant that asked for one, needs an
    // assertion: the password alone cannot approve. Refusing needs nothing more.
    if (input.consent && input.holderBinding !== "PASSKEY" && (input.accountHasPasskey || state.requirePasskey))
      return fail("PASSKEY_REQUIRED");
    let refused = false;
    const after = await this.apply(
      {
        type: "complete",
        at: nowIso(),
        consent: input.consent,
        dateOfBirth: input.dateOfBirth,
        receiptId: newId("rcpt"),
        holderBinding: input.holderBinding,
      },
      (result) => (refused = result.outcome === "not_pending"),
    );
    return refused ? fail("SESSION_NOT_PENDING") : { ok: true, value: polledView(after) };
  }

  /**
   * A fresh digital-ID request (docs/api-contract.md §Digital ID) for the browser's Digital Credentials API. Its private half
   * replaces any earlier one: only the latest request can be answered.
   */
  async digitalIdRequest(nonce: string): Promise<SessionResult<{ requests: DigitalCredentialRequest[] }>> {
    const checked = await this.digitalIdGate(nonce);
    if (!checked.ok) return checked;
    const state = checked.value;
    if ((await this.digitalIdFailures()) >= DIGITAL_ID_FAILURES_MAX) return this.digitalIdLimited(state);
    const { settings } = this.root;
    const { requests, pending } = await createDigitalIdRequest({
      ageRequired: state.ageRequired,
      appOrigin: appOriginOf(settings),
      now: new Date(),
    });
    await this.ctx.storage.put(DIGITAL_ID_REQUEST_KEY, pending);
    return { ok: true, value: { requests } };
  }

  /**
   * The wallet's answer to the latest request. A refusal counts one failure and changes nothing else; an
   * outcome resolves the session and drops the request in one serialized section, so of two answers at
   * once only one resolves. Nothing of the credential is kept or logged: only the outcome leaves the verifier.
   */
  async digitalIdResponse(nonce: string, body: { protocol: unknown; data: unknown }): Promise<SessionResult<PolledSession>> {
    const checked = await this.digitalIdGate(nonce, { beforeStatus: true });
    if (!checked.ok) return checked;
    const state = checked.value;
    // A try is held from here until the answer is judged: an answer being verified counts as a failure
    // for the answers that arrive meanwhile, so no timing lets more than the cap be verified.
    const reserved = await this.reserveDigitalIdTry();
    if (reserved !== "reserved") return this.digitalIdLimited(state, reserved === "busy" ? 1 : undefined);
    const pending = await this.ctx.storage.get<PendingDigitalIdRequest>(DIGITAL_ID_REQUEST_KEY);
    const { settings } = this.root;
    let outcome: DigitalIdOutcome;
    try {
      outcome = await verifyDigitalIdResponse(body, {
        pending,
        ageRequired: state.ageRequired,
        appOrigin: appOriginOf(settings),
        trustAnchors: trustAnchorsOf(settings),
        now: new Date(),
        statusLists: isolateStatusLists,
      });
    } catch (error) {
      const refused = refusedAnswer(error);
      if (!refused.counted) return fail("DIGITAL_ID_BODY_INVALID", { message: refused.message, errors: refused.errors });
      await this.countDigitalIdFailure();
      return fail(refused.error === "DIGITAL_ID_INVALID" ? "DIGITAL_ID_INVALID" : "DIGITAL_ID_INSUFFICIENT", { message: refused.message });
    } finally {
      // After the failure is counted (in the same synchronous step as its mirror), so the try passes from
      // "in flight" to "failed" with no moment in between where it counts as neither.
      this.digitalIdAnswersInFlight--;
    }
    let result = "resolved" as "resolved" | "not_pending" | "replaced";
    const after = await this.apply(
      {
        type: "proof",
        at: nowIso(),
        receiptId: newId("rcpt"),
        above: outcome.outcome === "APPROVED",
        assurance: "DIGITAL_ID_VERIFIED",
        holderBinding: "DEVICE_KEY",
      },
      (transitioned) => {
        if (transitioned.outcome === "not_pending") result = "not_pending";
      },
      // The request verified must still be the latest one when the answer lands (another answer may have used it).
      async () => {
        const latest = await this.ctx.storage.get<PendingDigitalIdRequest>(DIGITAL_ID_REQUEST_KEY);
        if (latest !== undefined && latest.openId4Vp.nonce === pending?.openId4Vp.nonce) return true;
        result = "replaced";
        return false;
      },
    );
    if (result === "replaced") return fail("DIGITAL_ID_INVALID", { message: NO_OPEN_REQUEST });
    return result === "not_pending" ? fail("SESSION_NOT_PENDING") : { ok: true, value: polledView(after) };
  }

  /**
   * An anonymous age token's approval (docs/api-contract.md §Age tokens), its token already verified by the caller: all in
   * one serialized section, so that a token is spent only on a session that takes it and two spends of
   * one token cannot both approve. Nonce, threshold against age_required, the merchant's policy, still
   * PENDING, then the spend (D1's unique nonce hash: 409 on a second spend, from any session), then the
   * proof. Nothing about who holds the token is known here.
   */
  async redeemAgeToken(input: { nonce: string; ageOver: number; spent: SpentAgeToken }): Promise<SessionResult<PolledSession>> {
    let result: SessionResult<PolledSession> | undefined;
    await this.ctx.blockConcurrencyWhile(async () => {
      const state = await this.load();
      if (!state || !(await this.nonceMatches(state, input.nonce))) return void (result = fail(await this.unknownOrWithdrawn(input.nonce)));
      if (input.ageOver < state.ageRequired) return void (result = fail("AGE_TOKEN_INSUFFICIENT"));
      const refusal = policyRefusal(state, "age_token");
      if (refusal) return void (result = fail(refusal));
      const event: SessionEvent = {
        type: "proof",
        at: nowIso(),
        receiptId: newId("rcpt"),
        above: true,
        assurance: "KYC_VERIFIED",
        holderBinding: "ANONYMOUS_TOKEN",
      };
      if (transition(state, event).outcome !== "changed") {
        // Answered or expired (an expiry is recorded on the way): the token stays unspent.
        await this.applyNow(event);
        return void (result = fail("SESSION_NOT_PENDING"));
      }
      const spend = await insertSpentAgeToken(this.root.home, input.spent);
      // A key recorded as retired verifies nothing, published or not (src/db/spent-age-tokens.ts).
      if (spend !== "recorded") return void (result = fail(spend === "spent" ? "AGE_TOKEN_SPENT" : "AGE_TOKEN_INVALID"));
      result = { ok: true, value: polledView(await this.applyNow(event)) };
    });
    return result!;
  }

  /**
   * Test mode: answers a test session with the outcome the tester picked, through the merchant's test
   * key (its account) or the page (the nonce). A live session is NOT_FOUND here, whoever asks.
   */
  async testAnswer(auth: { accountId: string } | { nonce: string }, outcome: TestOutcome): Promise<SessionResult<PolledSession>> {
    const state = await this.load();
    if (!state) return fail("nonce" in auth ? await this.unknownOrWithdrawn(auth.nonce) : "NOT_FOUND");
    if (state.livemode !== false) return fail("NOT_FOUND");
    if ("accountId" in auth ? state.accountId !== auth.accountId : !(await this.nonceMatches(state, auth.nonce))) return fail("NOT_FOUND");
    let refused = false;
    const after = await this.apply(
      { type: "test_answer", at: nowIso(), outcome, receiptId: newId("rcpt") },
      (result) => (refused = result.outcome === "not_pending"),
    );
    return refused ? fail("SESSION_NOT_PENDING") : { ok: true, value: polledView(after) };
  }

  /**
   * The merchant's account is being deleted: the session expires at once and the object forgets it
   * (its merchant, key and callback address are that account's data).
   */
  async closeForDeletedAccount(): Promise<void> {
    // Closed already (a queue message retried: its trace stays) or never opened here: nothing to do.
    if (!(await this.load())) return;
    const closed = await this.apply({ type: "expire", at: nowIso(), force: true });
    await this.forget();
    // The link's holder is told it is no longer valid (410 SESSION_WITHDRAWN), for as long as an answered
    // link is kept (docs/end-user-apps.md): a 404 would read as a broken or mistyped link.
    const withdrawn: Withdrawn = { nonceHash: closed.nonceHash, forgetAt: this.forgetAt(closed) };
    await this.ctx.storage.put("withdrawn", withdrawn);
    await this.ctx.storage.setAlarm(withdrawn.forgetAt);
  }

  /** The failure for a nonce that opens no session here: SESSION_WITHDRAWN for a withdrawn link's own nonce, else the one 404. */
  private async unknownOrWithdrawn(nonce: string): Promise<SessionFailure> {
    const withdrawn = await this.ctx.storage.get<Withdrawn>("withdrawn");
    return withdrawn && timingSafeEqual(await sha256Hex(nonce), withdrawn.nonceHash) ? "SESSION_WITHDRAWN" : "NOT_FOUND";
  }

  /**
   * Enqueues this resolved session's callback again, under the webhook-id of an event whose queue
   * message was lost (src/maintenance/resend-stalled-callbacks.ts), or that its merchant redelivers
   * (src/domain/merchant-callbacks/redelivery.ts), through the same queue as the resolution.
   * False when the object no longer holds a resolved session (forgotten after its retention).
   */
  async resendCallback(webhookId: string, attempt: number, options: { redelivery?: boolean } = {}): Promise<boolean> {
    const state = await this.load();
    if (!state || state.status === "PENDING") return false;
    const message = callbackMessage(state, webhookId, attempt);
    await this.root.callbackQueue.send(options.redelivery ? { ...message, redelivery: true } : message);
    return true;
  }

  /** One alarm serves three purposes: retry a pending outbox, expire when due, forget when retained long enough. */
  override async alarm(): Promise<void> {
    await this.flushOutbox();
    let state = await this.load();
    if (!state) return this.forgetWithdrawnWhenDue();
    if (state.status === "PENDING") {
      state = await this.apply({ type: "expire", at: nowIso() });
    } else if (!(await this.ctx.storage.get("outbox")) && Date.now() >= this.forgetAt(state)) {
      await this.forget();
      return;
    }
    await this.scheduleAlarm(state);
  }

  /** A withdrawn link's trace goes at its time (an early or repeated alarm leaves it, and sets the alarm again). */
  private async forgetWithdrawnWhenDue(): Promise<void> {
    const withdrawn = await this.ctx.storage.get<Withdrawn>("withdrawn");
    if (!withdrawn) return;
    if (Date.now() >= withdrawn.forgetAt) return this.forget();
    await this.ctx.storage.setAlarm(withdrawn.forgetAt);
  }

  private async forget(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  private forgetAt(state: SessionState): number {
    return Date.parse(state.resolvedAt ?? state.expiresAt) + RESOLVED_RETENTION_MS;
  }

  private async scheduleAlarm(state: SessionState): Promise<void> {
    const at = (await this.ctx.storage.get("outbox"))
      ? Date.now() + OUTBOX_RETRY_MS
      : state.status === "PENDING"
        ? Date.parse(state.expiresAt)
        : this.forgetAt(state);
    await this.ctx.storage.setAlarm(at);
  }

  /**
   * What both digital-ID routes check first, in order: the nonce, the merchant's policy and the
   * deployment's offer, then (for the request, or for the response once a request is open) the status.
   */
  private async digitalIdGate(nonce: string, options: { beforeStatus?: boolean } = {}): Promise<SessionResult<SessionState>> {
    let state = await this.load();
    if (!state || !(await this.nonceMatches(state, nonce))) return fail(await this.unknownOrWithdrawn(nonce));
    const refusal = policyRefusal(state, "digital_id") ?? (digitalIdOffered(this.root.settings) ? null : "ASSURANCE_NOT_ACCEPTED");
    if (refusal) return fail(refusal);
    // An answer with no request open (never asked, replaced or already answered) fails like any unbound one.
    if (options.beforeStatus && !(await this.ctx.storage.get(DIGITAL_ID_REQUEST_KEY))) {
      return fail("DIGITAL_ID_INVALID", { message: NO_OPEN_REQUEST });
    }
    if (state.status === "PENDING" && Date.now() >= Date.parse(state.expiresAt)) state = await this.apply({ type: "expire", at: nowIso() });
    if (state.status !== "PENDING") return fail("SESSION_NOT_PENDING");
    return { ok: true, value: state };
  }

  /** The failed answers so far: the stored count, read once per instance and then kept in memory. */
  private async digitalIdFailures(): Promise<number> {
    const stored = (await this.ctx.storage.get<number>(DIGITAL_ID_FAILURES_KEY)) ?? 0;
    // Only after the await: a failure counted by another answer while this one read storage is kept.
    this.digitalIdFailuresSeen ??= stored;
    return this.digitalIdFailuresSeen;
  }

  /** One try for an answer, or why not: the failures are spent, or the tries left are held by answers being verified. */
  private async reserveDigitalIdTry(): Promise<"reserved" | "spent" | "busy"> {
    await this.digitalIdFailures();
    // From here to the increment, no await: the check and the reservation are one step.
    const failures = this.digitalIdFailuresSeen!;
    if (failures >= DIGITAL_ID_FAILURES_MAX) return "spent";
    if (failures + this.digitalIdAnswersInFlight >= DIGITAL_ID_FAILURES_MAX) return "busy";
    this.digitalIdAnswersInFlight++;
    return "reserved";
  }

  /** Adds one failed answer: incremented in memory in one step, then stored, so concurrent failures each count. */
  private async countDigitalIdFailure(): Promise<void> {
    await this.digitalIdFailures();
    this.digitalIdFailuresSeen = this.digitalIdFailuresSeen! + 1;
    await this.ctx.storage.put(DIGITAL_ID_FAILURES_KEY, this.digitalIdFailuresSeen);
  }

  /**
   * Past the failed answers a session takes: no more requests or answers; the other ways stay open until
   * it expires (Retry-After). `retryAfter` is given when only answers still being verified hold the tries.
   */
  private digitalIdLimited(state: SessionState, retryAfter?: number) {
    return fail("DIGITAL_ID_FAILURES_EXCEEDED", {
      retryAfter: retryAfter ?? Math.max(1, Math.ceil((Date.parse(state.expiresAt) - Date.now()) / 1000)),
    });
  }

  private async nonceMatches(state: SessionState, nonce: string): Promise<boolean> {
    return timingSafeEqual(await sha256Hex(nonce), state.nonceHash);
  }

  /** Applies an event under the object's lock: exactly one of complete and expire wins. */
  private async apply(
    event: SessionEvent,
    observe?: (result: ReturnType<typeof transition>) => void,
    precondition?: () => Promise<boolean>,
  ): Promise<SessionState> {
    let next: SessionState | undefined;
    await this.ctx.blockConcurrencyWhile(async () => {
      if (precondition && !(await precondition())) {
        next = await this.load();
        if (!next) throw new Error("session state missing");
        return;
      }
      next = await this.applyNow(event, observe);
    });
    return next!;
  }

  /** apply's work, for a caller already inside the object's lock (redeemAgeToken). */
  private async applyNow(event: SessionEvent, observe?: (result: ReturnType<typeof transition>) => void): Promise<SessionState> {
    const current = await this.load();
    if (!current) throw new Error("session state missing");
    const result = transition(current, event);
    observe?.(result);
    let next = result.state;
    const changed = result.outcome === "changed" || (result.outcome === "not_pending" && result.changed);
    if (!changed || next.status === "PENDING") return next;
    if (next.status === "APPROVED" || next.status === "DENIED") next = { ...next, receipt: await this.signedReceipt(next, next.status) };
    const message = callbackMessage(next, newId("msg"), 1);
    // However the session ended, its digital-ID request can no longer be answered (a replay finds none):
    // both writes issued before any await, so they commit together.
    const dropped = this.ctx.storage.delete(DIGITAL_ID_REQUEST_KEY);
    await this.ctx.storage.put<unknown>({ state: next, outbox: { message } satisfies Outbox });
    await dropped;
    await this.flushOutbox();
    await this.scheduleAlarm(next);
    return next;
  }

  /** The resolution's receipt, signed once here so that the poll and every callback carry the same one. */
  private signedReceipt(state: SessionState, outcome: "APPROVED" | "DENIED"): Promise<string> {
    const view = polledView(state);
    return signReceipt(this.root.settings, {
      receipt_id: state.receiptId!,
      session_id: state.id,
      merchant_id: state.accountId,
      age_required: state.ageRequired,
      outcome,
      assurance: view.assurance,
      holder_binding: view.holder_binding,
      denial_reason: view.denial_reason,
      resolved_at: state.resolvedAt!,
      livemode: state.livemode ?? true,
      iat: Math.floor(Date.parse(state.resolvedAt!) / 1000),
      iss: this.root.settings.appUrl,
    });
  }

  /**
   * A resolution's first callback attempt, made here at once by the callback sender itself
   * (src/callbacks/first-attempt.ts) once the event is durable; the queue keeps the retries and a copy.
   */
  private firstCallbackAttempt(message: CallbackMessage): Promise<void> {
    return deliverAtOnce(message, this.root);
  }

  /** Mirrors the resolution to D1 and enqueues its callback; on failure the alarm tries again. */
  private async flushOutbox(): Promise<void> {
    const outbox = await this.ctx.storage.get<Outbox>("outbox");
    if (!outbox) return;
    const { message } = outbox;
    const ctx = this.onShard(message.shard);
    try {
      await ctx.db.$client.batch(
        resolutionStatements(
          ctx.db,
          {
            sessionId: message.sessionId,
            status: message.data.status as "APPROVED" | "DENIED" | "EXPIRED",
            aboveAgeRequired: message.data.above_age_required,
            receiptId: message.data.receipt_id,
            resolvedAt: message.data.resolved_at ?? message.timestamp,
            // A message stored before 1.2.0 has none of these three (D1 refuses to bind undefined);
            // their columns were never written, so null leaves them as they are.
            assurance: message.data.assurance ?? null,
            holderBinding: message.data.holder_binding ?? null,
            denialReason: message.data.denial_reason ?? null,
          },
          message,
        ),
      );
      // The queue's copy first, then the attempt at once: once the outbox is gone, the copy is what
      // guarantees delivery (src/callbacks/first-attempt.ts).
      await this.root.callbackQueue.send(safetyNetMessage(message), { delaySeconds: SAFETY_NET_DELAY_SECONDS });
      await this.ctx.storage.delete("outbox");
      // Not awaited by the answer: the merchant's server may take up to 15 s, the person need not wait.
      this.ctx.waitUntil(this.firstCallbackAttempt(message));
    } catch (error) {
      if (!(await sessionLogExists(ctx, message.sessionId).catch(() => true))) {
        // The merchant's account was deleted with its log: there is no one left to tell.
        await this.ctx.storage.delete("outbox");
        return;
      }
      log("warn", "session outbox not flushed; retrying", {
        sessionId: message.sessionId,
        error: error instanceof Error ? error.name : "unknown",
      });
    }
  }
}
