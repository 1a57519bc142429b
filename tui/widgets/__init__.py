"""Widgets of papers-tui: the paper list (Line API), the paper pane, the tab bar, the search box,
the footer's key bar and the path field; ``scrolling`` and ``styles`` are what they draw with."""
