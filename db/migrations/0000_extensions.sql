-- drizzle-kit does not emit extensions; the trigram index on cars.search_text needs pg_trgm.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
