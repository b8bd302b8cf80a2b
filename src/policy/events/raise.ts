import type { Logger } from 'pino';
import { UserDeletedError, type StoredEvent, type Store } from '../../store/ports.ts';
import type { PolicySubject, RaisedEvent } from '../types.ts';

export interface EventOrigin {
  accountId: string;
  operation: string;
  userId: string | null;
  at: Date;
}

/**
 * Stores events raised by live calls. Each event is written with its webhook delivery jobs in one
 * transaction (the store's outbox); `onStored` wakes the delivery worker so sending starts at once.
 */
export class EventRaiser {
  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly onStored: (accountId: string) => void = () => undefined,
    /** The keyed hash a user deletion by userID records: an event of a user deleted before it is stored is dropped. */
    private readonly userHash: (userId: string) => string = (userId) => userId,
  ) {}

  /**
   * The events the subjects raise, each stored in its own transaction. A failure is logged and the
   * answer still goes out (it is usually already written): the caller asked for a score, and failing
   * it because the event log is down would turn an outage of one part into an outage of all.
   */
  async raise(origin: EventOrigin, subjects: ReadonlyArray<Pick<PolicySubject, 'event'>>): Promise<StoredEvent[]> {
    const stored: StoredEvent[] = [];
    const events: RaisedEvent[] = [];
    try {
      for (const subject of subjects) {
        const event = subject.event();
        if (event) events.push(event);
      }
    } catch (err) {
      this.logger.error({ err, accountId: origin.accountId, operation: origin.operation }, 'events could not be built');
      return stored;
    }
    for (const event of events) {
      try {
        stored.push(
          await this.store.events.insertEvent({
            accountId: origin.accountId,
            kind: event.kind,
            risk: event.risk,
            subject: event.subject,
            userId: origin.userId,
            operation: origin.operation,
            createdAt: origin.at.toISOString(),
            summary: event.summary,
            identity: event.identity ?? null,
            deletedIf: [...(origin.userId === null ? [] : [this.userHash(origin.userId)]), ...(event.identity ? [event.identity.hash] : [])],
          }),
        );
      } catch (err) {
        // The user was deleted (through any instance) while this event was on its way to the store.
        if (err instanceof UserDeletedError) continue;
        this.logger.error({ err, accountId: origin.accountId, kind: event.kind }, 'event could not be stored');
      }
    }
    if (stored.length > 0) this.onStored(origin.accountId);
    return stored;
  }
}
