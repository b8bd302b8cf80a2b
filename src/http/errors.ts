/** The closed catalogue of API error codes (spec "Errors" + decisions.md "Error types"). */
export const ERRORS = {
  101: { type: 'invalid_key', description: 'The API key is missing or invalid. Send it as the `key` query parameter or as `Authorization: Bearer <key>`.' },
  102: { type: 'inactive_user', description: 'The account that owns this API key is not active. Contact your administrator.' },
  103: { type: 'limit_reached', description: 'The monthly request quota of this account is used up. Wait for the next month or move to a larger plan.' },
  104: { type: 'invalid_params', description: 'The `params` option names an unknown module.' },
  105: { type: 'plan_expired', description: 'The subscription of this account has expired. Renew it to continue.' },
  106: { type: 'flood_detected', description: 'Too many requests in a short time. Slow down and retry shortly.' },
  107: { type: 'invalid_callback_name', description: 'The `callback` option must be a JavaScript identifier (optionally dotted, at most 4 levels, 64 characters each).' },
  108: { type: 'invalid_format', description: 'The `format` option must be one of JSON, XML, CSV or Newline.' },
  109: { type: 'callback_not_allowed', description: 'The `callback` option is only allowed with the JSON format.' },
  110: { type: 'invalid_language', description: 'The `lang` option must be one of EN, AR, DE, FR, ES, JA, ZH or RU.' },
  111: { type: 'invalid_mode', description: 'The `mode` option must be `live` or `test`.' },
  112: { type: 'invalid_ip', description: 'The IP address is empty or malformed. Send a valid IPv4 or IPv6 address.' },
  113: { type: 'domain_not_whitelisted', description: 'This request does not come from an authorized host of the account (Origin, Referer host or caller IP).' },
  114: { type: 'security_module_not_allowed', description: 'The plan of this account does not include a requested module.' },
  115: { type: 'generic_error', description: 'The service failed to answer this request. Retry later; if it persists, contact the operator.' },
  116: { type: 'invalid_country_code', description: 'The country code is missing or is not a valid ISO 3166-1 alpha-2 code.' },
  117: { type: 'feature_not_available', description: 'The plan of this account does not include this method.' },
  118: { type: 'invalid_phone_number', description: 'The phone number is missing or cannot be parsed.' },
  119: { type: 'invalid_email_address', description: 'The email address is missing or malformed.' },
  120: { type: 'invalid_bin_number', description: 'The BIN is missing or malformed. Send at least the first 6 digits of the card.' },
  121: { type: 'invalid_asn', description: 'The AS number is empty or malformed. Send it as `AS13335` or `13335`.' },
  122: { type: 'invalid_iban', description: 'The IBAN is missing or invalid.' },
  123: { type: 'invalid_userid', description: 'The `userID` option must be at most 255 characters with no control characters.' },
  124: { type: 'invalid_user_type', description: 'The identifier type is not recognised. Use email, phone or user_id.' },
  125: { type: 'invalid_user_value', description: 'The value to delete is empty or malformed.' },
  126: { type: 'too_many_deletions', description: 'The daily user deletion limit of this account is reached. Retry tomorrow.' },
  127: { type: 'subscription_required', description: 'This account has no subscription. Subscribe to a plan to use the API.' },
  128: { type: 'invalid_domain', description: 'The domain is missing or is not a valid fully qualified domain name.' },
  129: { type: 'invalid_text', description: 'The text is empty or longer than 10,000 characters.' },
  130: { type: 'invalid_payment_data', description: 'The `data` object is missing or invalid.' },
  131: { type: 'invalid_feedback', description: 'The feedback is missing required fields or has invalid values.' },
  132: { type: 'too_many_feedback_items', description: 'A bulk feedback call accepts at most 1000 items.' },
  // Vigil's additions for transport-level failures, answered with the matching HTTP status (docs/api-decisions.md).
  400: { type: 'bad_request', description: 'The request could not be read: malformed URL, encoding or headers.' },
  404: { type: 'not_found', description: 'There is no method at this path. See /docs for the list of methods.' },
  405: { type: 'method_not_allowed', description: 'This path does not answer this HTTP method; the Allow header lists the ones it answers. See /docs.' },
} as const satisfies Record<number, { type: string; description: string }>;

export type ErrorCode = keyof typeof ERRORS;

export interface ErrorBody {
  status: 'error';
  code: ErrorCode;
  type: string;
  description: string;
}

/** An expected API failure; carries a catalogue code and optionally a more precise description. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  constructor(code: ErrorCode, detail?: string) {
    super(detail ?? ERRORS[code].description);
    this.code = code;
    this.detail = detail;
  }
}

/** Builds the error envelope for a code; `detail` replaces the catalogue description. */
export function errorBody(code: ErrorCode, detail?: string): ErrorBody {
  const entry = ERRORS[code];
  return { status: 'error', code, type: entry.type, description: detail ?? entry.description };
}
