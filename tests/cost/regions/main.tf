provider "aws" {
  region = "us-east-1"
}
provider "aws" {
  alias  = "west"
  region = var.region
}
variable "region" {
  default = "us-west-2"
}
resource "aws_instance" "a" {
  provider      = aws.west
  instance_type = "g5.xlarge"
}
provider "google" {
  zone = "europe-west4-a"
}
resource "google_compute_instance" "z" {
  name = "x"
  machine_type = "g2-standard-4"
  boot_disk {}
  network_interface {}
}
