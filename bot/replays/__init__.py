"""Looking back at ended matches: records, exports, animated tables, and how long moves are kept."""
