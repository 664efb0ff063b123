/** The signed-in member as pages see them: made by the auth step from the session and account. */
export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: "member" | "organizer" | "admin";
  emailVerified: boolean;
  handle: string | null;
  image: string | null;
  /** Finished /newProfile. */
  onboarded: boolean;
  phoneNumber: string | null;
  phoneVerified: boolean;
  twoFactorEnabled: boolean;
  /** This browser's session, and when it began (a sign-in within minutes stands in for the password). */
  sessionId: string;
  signedInAt: Date;
};
