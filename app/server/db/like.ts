// Searches put what a visitor typed inside LIKE patterns, where `%` and `_` are wildcards and a
// backslash is PostgreSQL's default escape character. Every pattern is built here so that a search
// for "100%" or "j_smith" matches those characters and nothing else.

/** `text` with the LIKE wildcards and the escape character escaped, to match literally. */
export function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, "\\$&");
}

/** A LIKE pattern for values that contain `text`. */
export function containing(text: string) {
  return `%${escapeLike(text)}%`;
}

/** A LIKE pattern for values that end with `text`. */
export function endingWith(text: string) {
  return `%${escapeLike(text)}`;
}
