/**
 * The rules of moving a booking to other tickets (docs/transfers.md "Moves"), as plain functions.
 */

/** A ticket of the booking, as a move reads it. */
export type MovableTicket = {
  id: string;
  status: string;
  /** Its holder: a ticket passed on to someone else is theirs, not the buyer's, to move. */
  userId: string | null;
  /** Back on sale by its holder, or on its way to someone else. */
  listed: boolean;
  pendingTransfer: boolean;
};

/** The tickets a move can take: valid, still the buyer's, and not being passed on. */
export function movableTickets<T extends MovableTicket>(tickets: readonly T[], buyerId: string): T[] {
  return tickets.filter(
    (ticket) => ticket.status === "valid" && ticket.userId === buyerId && !ticket.listed && !ticket.pendingTransfer,
  );
}

/** Why `quantity` of the booking's tickets cannot move, or null when they can. */
export function moveQuantityProblem(quantity: number, movable: number, booked: number) {
  if (movable === 0) {
    return booked === 0
      ? "This booking has no tickets to move."
      : "None of these tickets can move: they are used, refunded, passed on or back on sale.";
  }
  if (quantity > movable)
    return `Only ${movable} of these tickets can move (the rest are used, refunded or passed on).`;
  return null;
}

/**
 * How the money settles once the new tickets are priced: the moved tickets' value pays for the
 * new ones (as account credit, spent at once); what is left of it comes `back` to the buyer; what
 * the new tickets cost beyond it is `extra`, charged or waived.
 */
export function moveDifference(movedValue: number, newValue: number) {
  return {
    carried: Math.min(movedValue, newValue),
    back: Math.max(0, movedValue - newValue),
    extra: Math.max(0, newValue - movedValue),
  };
}
