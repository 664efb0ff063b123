-- Every change to a member's account or to one of their sessions is announced on the
-- auth_changes channel with the member's id, so that each app server drops the sign-ins it keeps
-- in memory for that member (app/server/auth/session-cache.server.ts): a session ended, a role
-- changed or an account banned holds on no server, whichever code or tool made the change. A
-- new session needs no notice (no server knows it yet); emptying a table notifies an empty
-- payload, which drops every kept sign-in. PostgreSQL sends the notices when the change commits.
CREATE OR REPLACE FUNCTION pitlane_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('auth_changes', '');
  ELSIF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('auth_changes', OLD.user_id);
  ELSE
    PERFORM pg_notify('auth_changes', OLD.id);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS auth_changed ON sessions;
--> statement-breakpoint
CREATE TRIGGER auth_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION pitlane_auth_changed();
--> statement-breakpoint
DROP TRIGGER IF EXISTS auth_changed_all ON sessions;
--> statement-breakpoint
CREATE TRIGGER auth_changed_all AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION pitlane_auth_changed();
--> statement-breakpoint
DROP TRIGGER IF EXISTS auth_changed ON users;
--> statement-breakpoint
CREATE TRIGGER auth_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION pitlane_auth_changed();
--> statement-breakpoint
DROP TRIGGER IF EXISTS auth_changed_all ON users;
--> statement-breakpoint
CREATE TRIGGER auth_changed_all AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION pitlane_auth_changed();
