-- The database refuses any status change the car lifecycle table (common/car-lifecycle.ts) does
-- not allow, whatever the code does: a car is listed as a draft or active; a hidden car records
-- the status it was hidden from and returns to exactly that; and while it stays hidden, only the
-- moves money forces (a sale completing, a refund) move the status it returns to. Both the unit
-- test db/car-lifecycle-guard.test.ts and tests/integration/car-lifecycle-database.test.ts
-- check these pairs against the table.
CREATE FUNCTION "car_status_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.status NOT IN ('draft', 'active') THEN
      RAISE EXCEPTION 'a car is listed as a draft or active, not %', NEW.status USING ERRCODE = 'check_violation';
    END IF;
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    IF (OLD.status, NEW.status) NOT IN (
      ('draft', 'active'),
      ('draft', 'withdrawn'),
      ('active', 'withdrawn'),
      ('ended', 'withdrawn'),
      ('active', 'ended'),
      ('active', 'pending'),
      ('ended', 'pending'),
      ('pending', 'sold'),
      ('pending', 'active'),
      ('draft', 'hidden'),
      ('active', 'hidden'),
      ('pending', 'hidden'),
      ('sold', 'hidden'),
      ('ended', 'hidden'),
      ('withdrawn', 'hidden'),
      ('hidden', 'draft'),
      ('hidden', 'active'),
      ('hidden', 'pending'),
      ('hidden', 'sold'),
      ('hidden', 'ended'),
      ('hidden', 'withdrawn')
    ) THEN
      RAISE EXCEPTION 'car % cannot move from % to %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
    ELSIF NEW.status = 'hidden' AND NEW.hidden_from_status IS DISTINCT FROM OLD.status THEN
      RAISE EXCEPTION 'car % is hidden from %, not from %', OLD.id, OLD.status, coalesce(NEW.hidden_from_status, 'nothing') USING ERRCODE = 'check_violation';
    ELSIF OLD.status = 'hidden' AND NEW.status IS DISTINCT FROM OLD.hidden_from_status THEN
      RAISE EXCEPTION 'car % was hidden from % and returns to it, not to %', OLD.id, OLD.hidden_from_status, NEW.status USING ERRCODE = 'check_violation';
    END IF;
  ELSIF NEW.status = 'hidden' AND NEW.hidden_by IS DISTINCT FROM OLD.hidden_by THEN
    RAISE EXCEPTION 'hidden car % stays hidden by %, not by %', OLD.id, OLD.hidden_by, coalesce(NEW.hidden_by, 'nobody') USING ERRCODE = 'check_violation';
  ELSIF NEW.status = 'hidden' AND NEW.hidden_from_status IS DISTINCT FROM OLD.hidden_from_status AND (OLD.hidden_from_status, NEW.hidden_from_status) NOT IN (
    ('pending', 'sold'),
    ('pending', 'active')
  ) THEN
    RAISE EXCEPTION 'hidden car % cannot move from % to % while hidden', OLD.id, OLD.hidden_from_status, coalesce(NEW.hidden_from_status, 'nothing') USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "cars_status_guard" BEFORE INSERT OR UPDATE OF "status", "hidden_from_status", "hidden_by" ON "cars" FOR EACH ROW EXECUTE FUNCTION "car_status_guard"();
