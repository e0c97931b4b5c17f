import { InputError } from '../contract/input-error.ts'

export const formatUsd = (usd: number) => `$${usd.toFixed(4)}`

/** What was refused, for the message of BudgetExceededError. */
export interface BudgetStop {
  /** The call not sent, e.g. "q-042 judge:faithfulness (claude-haiku-4-5-20251001)". */
  what: string
  worstUsd: number
  maxUsd: number
  /** What a rerun finds (the cache folder). */
  resume: string
}

/** EVAL_MAX_USD reached: an InputError (a limit the user set), so the CLI prints the message alone. */
export class BudgetExceededError extends InputError {
  override name = 'BudgetExceededError'

  constructor(
    readonly stop: BudgetStop,
    readonly spentUsd: number,
    readonly paidCalls: number,
    inFlightUsd: number,
  ) {
    super(
      `EVAL_MAX_USD=${formatUsd(stop.maxUsd)} reached: ${stop.what} was not sent, ` +
        `because its worst case (${formatUsd(stop.worstUsd)}, the reply at max_tokens) ` +
        `could take the run over the cap. ` +
        `Spent: ${formatUsd(spentUsd)} on ${paidCalls} API ` +
        `call(s)${inFlightUsd > 0 ? `, with up to ${formatUsd(inFlightUsd)} more in flight (awaited, and kept)` : ''}. ` +
        `${stop.resume}; or raise EVAL_MAX_USD.`,
    )
  }

  /** The same stop once the calls in flight have landed: their cost counted in. */
  settled(spentUsd: number, paidCalls: number): BudgetExceededError {
    return new BudgetExceededError(this.stop, spentUsd, paidCalls, 0)
  }
}

/** A request's worst case, held against the cap while it is in flight. */
export interface Reservation {
  readonly usd: number
  open: boolean
}

/**
 * The run's spending against EVAL_MAX_USD: a request goes only if spent + in-flight reservations + its worst case fit.
 * One that does not fit waits while calls are in flight (their real cost is usually far lower); with none, the run stops.
 */
export class SpendingCap {
  #spent = 0
  /** Asked of a set, never a running sum: floating-point residue once all are released made a waiter wait forever. */
  readonly #inFlight = new Set<Reservation>()
  #paidCalls = 0
  #waiting: (() => void)[] = []

  /** maxUsd: null for no cap. resume: what a rerun finds, for the error message. */
  constructor(
    readonly maxUsd: number | null,
    readonly resume: string,
  ) {}

  /** USD of the responses received so far. */
  get spent(): number {
    return this.#spent
  }

  /** API responses paid for so far. */
  get paidCalls(): number {
    return this.#paidCalls
  }

  /** Holds `worstUsd` for a request about to be sent, now; throws BudgetExceededError (sending nothing) when it could cross the cap. */
  reserve(what: string, worstUsd: number): Reservation {
    const reserved = this.#reserved()
    if (this.maxUsd !== null && this.#spent + reserved + worstUsd > this.maxUsd) {
      throw new BudgetExceededError(
        { what, worstUsd, maxUsd: this.maxUsd, resume: this.resume },
        this.#spent,
        this.#paidCalls,
        reserved,
      )
    }
    const reservation = { usd: worstUsd, open: true }
    this.#inFlight.add(reservation)
    return reservation
  }

  /** The worst cases of the calls in flight, summed afresh (0 exactly when none is). */
  #reserved(): number {
    let sum = 0
    for (const reservation of this.#inFlight) sum += reservation.usd
    return sum
  }

  /** As reserve, but a request that does not fit while others are in flight first waits for them to land. */
  async reserveWhenRoom(what: string, worstUsd: number): Promise<Reservation> {
    for (;;) {
      const reservation = this.tryReserve(what, worstUsd)
      if (reservation) return reservation
      await this.nextRelease()
    }
  }

  /** Reserves now when it fits; null when calls in flight may make room (await nextRelease); throws when it never can. */
  tryReserve(what: string, worstUsd: number): Reservation | null {
    if (this.maxUsd !== null && this.#inFlight.size > 0 && this.#spent + this.#reserved() + worstUsd > this.maxUsd) return null
    return this.reserve(what, worstUsd)
  }

  /** Resolves when a reservation is next given back (a call in flight landed or failed). */
  nextRelease(): Promise<void> {
    return new Promise<void>((resolve) => this.#waiting.push(resolve))
  }

  /** The request was answered: its reservation becomes its real cost. */
  settle(reservation: Reservation, usd: number): void {
    this.release(reservation)
    this.#spent += usd
    this.#paidCalls += 1
  }

  /** The request was not answered (failed, expired): nothing was spent. */
  release(reservation: Reservation): void {
    if (!reservation.open) return
    reservation.open = false
    this.#inFlight.delete(reservation)
    for (const wake of this.#waiting.splice(0)) wake()
  }
}
