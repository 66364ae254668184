"""Rule systems: each subpackage registers one ruleset."""
