/**
 * What an organizer change answers besides success: a rule refused it, naming the field it is
 * about ("" for the whole form), or what it changes no longer exists.
 */
export type Refusal = { ok: false; field: string; message: string };
export type NotFound = { ok: false; field: ""; message: string; notFound: true };

export const refuse = (field: string, message: string): Refusal => ({ ok: false, field, message });

/** `what` ("This event") no longer exists. */
export const gone = (what: string): NotFound => ({
  ok: false,
  field: "",
  message: `${what} no longer exists.`,
  notFound: true,
});
