def as_stored(got: object, want: object) -> object:
    """``got`` cut down to the keys ``want`` has, all the way down: engine dicts only add keys
    (clients depend on the old ones), so stored dicts are compared on the keys they had."""
    if isinstance(got, dict) and isinstance(want, dict):
        return {key: as_stored(got[key], want[key]) if key in got else None for key in want}
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        return [as_stored(g, w) for g, w in zip(got, want, strict=True)]
    return got
