package mcp_test

import (
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

type toolSchema = tools.ToolSchema

var discoveryCollision = discovery.ErrNameCollision
