-- Each lease gets a token of its own when it is made: a task carries it, and a release names the
-- lease it was issued for. A reviewer's release that arrives late (sent for an earlier claim of
-- the same item, on another connection) then never ends the lease an undo or a new claim made
-- since; it ended that item's lease regardless before. A lease extended in place (renewed, or
-- taken again while still held) keeps its token. The leases held now get theirs here.
ALTER TABLE leases ADD COLUMN token TEXT;
UPDATE leases SET token = lower(hex(randomblob(8)));
