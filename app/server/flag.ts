/** The values that switch a yes-or-no setting on; any other value leaves it off. */
const ON = new Set(["1", "true", "on", "yes"]);

/** Whether an environment variable's value switches its setting on. */
export function isOn(value: string | undefined) {
  return value !== undefined && ON.has(value);
}
