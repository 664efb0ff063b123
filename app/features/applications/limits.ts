/** How long the member's note and the organizers' message may be (forms and rules share them). */
export const NOTE_MAX = 2000;
export const DECISION_NOTE_MAX = 1000;
