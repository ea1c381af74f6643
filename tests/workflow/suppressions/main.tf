# Suppression cases; tests/test_suppressions.py checks each resource by name.

# gpulint:ignore gpu-missing-cost-tags -- tagged by the account-level tag policy
resource "aws_instance" "before" {
  instance_type = "g5.xlarge"
}

resource "aws_instance" "inside" {
  instance_type = "g5.xlarge"
  # gpulint:ignore gpu-missing-cost-tags -- inside the block also counts
}

# gpulint:ignore gpu-missing-cost-tags until=2026-01-31 -- until the tagging migration ends
resource "aws_instance" "expiring" {
  instance_type = "g5.xlarge"
}

# gpulint:ignore gpu-missing-cost-tags
resource "aws_instance" "no_reason" {
  instance_type = "g5.xlarge"
}

# gpulint:ignore gpu-training-on-demand -- this one is tagged, so nothing to hide
resource "aws_instance" "unused" {
  instance_type = "g5.xlarge"
  tags          = { team = "ml", project = "search", env = "prod" }
}

# gpulint:ignore gpu-missing-cost-tag -- misspelt rule id
resource "aws_instance" "misspelt" {
  instance_type = "g5.xlarge"
}

# gpulint:ignore gpu-missing-cost-tags until=someday -- bad date
resource "aws_instance" "bad_date" {
  instance_type = "g5.xlarge"
}

resource "aws_instance" "plain" {
  instance_type = "g5.xlarge"
}
