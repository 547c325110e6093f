"""HTTP resources, one blueprint per folder (``resources.py`` + ``schemas.py``)."""
