"""Event day beside the pages: the organizer's round desk, exports, the event archive, the replay viewer's steps."""
