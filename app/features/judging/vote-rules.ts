/**
 * Who may cast a People's Choice ballot (docs/car-shows.md), as a pure function. A ballot belongs to
 * an admitted ticket and a category: a ticket checked in at this show votes once in each category
 * (a member holding three tickets votes three times), may change its vote until voting closes,
 * and never for a car its holder shows. Nothing here looks at an IP address.
 */

export type VotingTicket = {
  eventId: string;
  status: "valid" | "checked_in" | "cancelled" | "refunded" | "transferred";
  /** Who holds the ticket now: its buyer, or whoever it was passed on to. */
  holderId: string | null;
};

export type Voting = { eventId: string; opensAt: Date | null; closesAt: Date | null };

const NOT_VALID = {
  cancelled: "This ticket was cancelled",
  refunded: "This ticket was refunded",
  transferred: "This ticket was passed on: its new holder votes with it",
} as const;

/** Why this ballot cannot be cast now (null when it can). */
export function voteProblem(input: {
  voting: Voting;
  ticket: VotingTicket | null;
  voterId: string;
  /** Who shows the car voted for. */
  carOwnerId: string | null;
  now: Date;
}): string | null {
  const { voting, ticket, now } = input;
  if (!voting.opensAt || now < voting.opensAt) return "Voting has not opened yet";
  if (voting.closesAt && now >= voting.closesAt) return "Voting has closed";
  if (!ticket) return "Vote with a ticket for this show";
  if (ticket.eventId !== voting.eventId) return "This ticket is for another event";
  if (ticket.holderId !== input.voterId) return "Vote with a ticket of your own";
  if (ticket.status !== "valid" && ticket.status !== "checked_in") return NOT_VALID[ticket.status];
  if (ticket.status !== "checked_in") return "Only tickets checked in at the show can vote: scan in at the gate first";
  if (input.carOwnerId !== null && input.carOwnerId === input.voterId) return "You cannot vote for your own car";
  return null;
}
