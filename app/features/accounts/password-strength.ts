/**
 * A quick strength estimate for the hint under password fields: length and variety, with
 * penalties for runs and repeats. It only guides; the server refuses short and common
 * passwords whatever this says.
 */
export function estimatePasswordStrength(password: string): { score: 0 | 1 | 2 | 3 | 4; hint: string } {
  if (!password) return { score: 0, hint: "" };
  if (password.length < 10) return { score: 0, hint: `${10 - password.length} more characters needed` };
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z\d]/].filter((pattern) => pattern.test(password)).length;
  const unique = new Set(password.toLowerCase()).size;
  let points = Math.min(password.length, 24) / 4 + classes + (password.includes(" ") ? 1 : 0);
  if (unique < password.length / 3) points -= 3;
  if (/(.)\1{2,}/.test(password)) points -= 1;
  if (/(0123|1234|2345|3456|4567|5678|6789|abcd|qwer|asdf|zxcv)/i.test(password)) points -= 2;
  if (points < 5) return { score: 1, hint: "Weak: easy to guess. Add more words or characters." };
  if (points < 7) return { score: 2, hint: "Fair: longer would be safer." };
  if (points < 9) return { score: 3, hint: "Good." };
  return { score: 4, hint: "Strong." };
}
