ALTER TABLE "session_events" DROP CONSTRAINT "session_events_session_id_sessions_id_fk";
--> statement-breakpoint
-- Deletes a session and its events in one transaction. The first DELETE waits for the row locks of
-- appends in flight; the second is a new statement, so (READ COMMITTED) its fresh snapshot sees the
-- events those appends committed while it waited. No event outlives its session.
CREATE OR REPLACE FUNCTION backtrack_delete_session(target text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  deleted boolean;
BEGIN
  DELETE FROM sessions WHERE id = target;
  deleted := FOUND;
  DELETE FROM session_events WHERE session_id = target;
  RETURN deleted;
END;
$$;
