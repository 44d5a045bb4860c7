"""An event's steps: creation and rules, registration and membership, qualifying groups, disqualification, advancement."""
