import type { EventKind } from '../types.ts';
import type { StoredEvent } from '../../store/ports.ts';

/** The JSON body POSTed to webhooks (decisions.md "Webhooks"). Only live calls raise events. */
export interface WebhookPayload {
  event_id: number;
  event: EventKind;
  created_at: string;
  mode: 'live';
  user_id: string | null;
  /** The scored result summary stored with the event. */
  data: Record<string, unknown>;
}

export function webhookPayload(event: StoredEvent): WebhookPayload {
  return {
    event_id: event.eventId,
    event: event.kind,
    created_at: event.createdAt,
    mode: 'live',
    user_id: event.userId,
    data: event.summary,
  };
}

/** The exact body text that is signed and sent. */
export function payloadBody(event: StoredEvent): string {
  return JSON.stringify(webhookPayload(event));
}
