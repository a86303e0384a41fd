-- Discover's list across processes (decisions 028 and 034, src/joins/discover-list.pg.ts): every insert,
-- update and delete of a campaign row notifies 'discover_changed' with the campaign's id. PostgreSQL
-- delivers it at commit (nothing for a rollback, repeats of one id in one transaction folded) to every
-- process listening (src/joins/discover-notify-pg.ts), which re-reads that one campaign. Custom
-- migration (drizzle-kit does not model triggers); idempotent, as a process may be started on a
-- database that has it already (PostgreSQL 14+: CREATE OR REPLACE TRIGGER).
CREATE OR REPLACE FUNCTION coinsync_discover_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('discover_changed', OLD.id);
  ELSE
    PERFORM pg_notify('discover_changed', NEW.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER servers_discover_notify
  AFTER INSERT OR UPDATE OR DELETE ON servers
  FOR EACH ROW EXECUTE FUNCTION coinsync_discover_notify();
