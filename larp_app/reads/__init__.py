"""Read models: what the pages, the phones and the exports read of an event, built from
the log, the sheets and what the worker keeps; they write nothing of the event."""
