"""The match layer shared by the services: for now, the finished-match message."""
