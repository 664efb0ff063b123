/**
 * The methods that change nothing. The Origin check and the body limits let them through: a link
 * followed from another site must still open the page, and they carry no body worth refusing.
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);
