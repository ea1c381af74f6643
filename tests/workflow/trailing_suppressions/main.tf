# Suppressions at the end of a line of code (tests/test_suppressions.py).

resource "aws_instance" "hash" {
  instance_type = "p4d.24xlarge" # gpulint:ignore gpu-missing-cost-tags -- tagged by the account's tag policy
}

resource "aws_instance" "slashes" {
  instance_type = "p4d.24xlarge" // gpulint:ignore gpu-missing-cost-tags -- tagged by the account's tag policy
}

resource "aws_instance" "opening_line" { # gpulint:ignore gpu-missing-cost-tags -- shared sandbox
  instance_type = "p4d.24xlarge"
}

# Inside a string it is text, not a comment: the finding stays.
resource "aws_instance" "in_string" {
  instance_type = "p4d.24xlarge"
  user_data     = "echo '# gpulint:ignore gpu-missing-cost-tags -- not a comment'"
}

# A URL's `//` is not a comment either.
resource "aws_instance" "url" {
  instance_type = "p4d.24xlarge"
  user_data     = "curl https://example.com/x//gpulint:ignore"
}

# Another rule named at the end of a line: the tags finding stays, the suppression is unused.
resource "aws_instance" "other_rule" {
  instance_type = "p4d.24xlarge" # gpulint:ignore gpu-training-on-demand -- not training
}

# No reason: not honoured, reported.
resource "aws_instance" "no_reason" {
  instance_type = "p4d.24xlarge" # gpulint:ignore gpu-missing-cost-tags
}
