-- A payment notification is delivered several times, to any server. Once one server has handled
-- its event to the end, every server is told (channel payment_events, payload provider:event id)
-- so that the provider's repeats of it reaching another server are answered from that server's
-- memory instead of asking the database. The notice is sent when the transaction that marks the
-- event processed commits, as every notice is.
CREATE OR REPLACE FUNCTION pitlane_payment_event_processed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('payment_events', NEW.provider || ':' || NEW.event_id);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER payment_event_processed AFTER UPDATE OF processed_at ON payment_events
  FOR EACH ROW WHEN (OLD.processed_at IS NULL AND NEW.processed_at IS NOT NULL)
  EXECUTE FUNCTION pitlane_payment_event_processed();
