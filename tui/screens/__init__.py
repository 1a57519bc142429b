"""The app's screens: the main triage screen and its dialogs."""
