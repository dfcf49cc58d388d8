"""Studies: several runs played on shared seeds to answer one design question -- a sweep of one
field, tune, ablation, A/B, skill -- with fair values and the studies' findings
(docs/design-studies.md). Imports the wings below it: content, store, analysis, play.
"""
