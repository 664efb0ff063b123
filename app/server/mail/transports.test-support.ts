import type { MailTransport } from "./mail.server";

/** A mail server that refuses every email, as one that is down does. */
export const downMailServer: MailTransport = {
  name: "smtp",
  async send() {
    throw new Error("The mail server is down");
  },
};

/**
 * A mail server that takes each email and keeps its answer back until `answer()`: for showing what
 * other senders see while a send is under way. `to` lists whom it was asked to send to.
 */
export function slowMailServer() {
  const to: string[] = [];
  let answer = () => {};
  const mail: MailTransport = {
    name: "smtp",
    send: (email) => {
      to.push(email.to);
      return new Promise((resolve) => (answer = () => resolve({ providerId: "<slow@smtp>" })));
    },
  };
  return { mail, to, answer: () => answer() };
}
