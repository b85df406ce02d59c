-- Record format 4 (storage/record): the format gained optional fields
-- only, so a schema-3 record becomes a schema-4 one by its version
-- alone. The codec writes "v" first, so every record starts with the
-- seven bytes {"v":3, and these become {"v":4, (bytes, not text: a
-- record is never decoded here). A record that does not start so is left
-- as it is, to be reported as damaged when read.
UPDATE games      SET record = '\x7b2276223a342c'::bytea || substring(record FROM 8) WHERE substring(record FROM 1 FOR 7) = '\x7b2276223a332c'::bytea;
UPDATE challenges SET record = '\x7b2276223a342c'::bytea || substring(record FROM 8) WHERE substring(record FROM 1 FOR 7) = '\x7b2276223a332c'::bytea;
UPDATE players    SET record = '\x7b2276223a342c'::bytea || substring(record FROM 8) WHERE substring(record FROM 1 FOR 7) = '\x7b2276223a332c'::bytea;
UPDATE rooms      SET record = '\x7b2276223a342c'::bytea || substring(record FROM 8) WHERE substring(record FROM 1 FOR 7) = '\x7b2276223a332c'::bytea;
UPDATE ratings    SET record = '\x7b2276223a342c'::bytea || substring(record FROM 8) WHERE substring(record FROM 1 FOR 7) = '\x7b2276223a332c'::bytea;
