-- Proposals have a scope (issue 15 point 3): 'chart' proposals edit a single chart's question
-- ("increase one category so it becomes the largest"); 'group' proposals are written for a
-- question over a chart group (the assumption edits one chart of the group so the relation
-- the question reads between the charts changes). A proposal's chart_type is then the type of
-- the chart its assumption edits. Every proposal made before scopes existed was single-chart.
ALTER TABLE proposals ADD COLUMN scope TEXT NOT NULL DEFAULT 'chart' CHECK (scope IN ('chart', 'group'));
CREATE INDEX proposals_scope_type_status ON proposals(scope, chart_type, status);
